// birlink for VS Code (docs/vscode.md): the inspector — the web app itself — in a
// webview, over link sets the extension host reads with `vscode.workspace.fs`, so a work
// directory on a Remote-SSH, WSL or container machine opens with no server, no port and
// no tunnel: the files go from the extension host to the webview as `Uint8Array`s, one
// message each, and reach the page as its own message protocol's `load`, and nowhere else.
//
// * `birlink.inspector`, a read-only custom editor ("Open With… → birlink") for
//   `bir_debug.*.json`, `bir.json` and `*.birlink.json`: it opens the link set the file
//   belongs to, as `birlink open` reads it — its work directory when it sits in one;
//   else a per-core file's folder; a bundle alone.
// * `birlink.openFolder` ("birlink: Open Link Set"): the workspace folder, or the folder
//   chosen in the explorer.
// * The page asks to open a file at a line (`open`): the dump at that JSON location, or
//   the kernel line behind an entity when that file is in the workspace.
// * The page's Open files / Open folder (either side) ask for VS Code's own dialog
//   (`pick`): it browses the machine the files are on, and what is chosen links in the
//   same view (B's as the set compared against).
// * A dump on disk that changes (a new compile) makes the view offer to link again.
//
// Plain JavaScript, no dependency but the VS Code API (and Node's `crypto`).

// @ts-check
'use strict';

const crypto = require('crypto');
const vscode = require('vscode');
const { isCoreFolder, byName } = require('./place');

const VIEW_TYPE = 'birlink.inspector';

/** The web app's files the webview loads (`web/`, the built page). */
const APP = ['app.js', 'app_bg.wasm', 'worker.js', 'worker_bg.wasm', 'style.css'];

/** The files a link set is made of; a work directory's other files (weights, engine
 *  programs) stay on disk: the link reads none of their bytes. */
function linkable(name) {
  const lower = name.toLowerCase();
  return lower.endsWith('.json') || name === 'command.txt' || isLog(name);
}

/** A compiler log, as the page tells one (`read::workdir::is_log`). */
function isLog(name) {
  const lower = name.toLowerCase();
  return (lower.startsWith('log-neuron-cc') && lower.endsWith('.txt')) || lower.endsWith('.log');
}

/** At most this many files, this many bytes, are read for one link set. */
const MAX_FILES = 20000;
const MAX_BYTES = 4 * 1024 * 1024 * 1024;

function activate(context) {
  const provider = {
    openCustomDocument(uri) {
      return { uri, dispose() {} };
    },
    async resolveCustomEditor(document, panel) {
      const set = await linkSetOf(document.uri);
      new Inspector(context, panel, set);
    },
  };
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, {
      supportsMultipleEditorsPerDocument: true,
      webviewOptions: { retainContextWhenHidden: false },
    }),
    vscode.commands.registerCommand('birlink.openFolder', async (uri) => {
      const target = uri instanceof vscode.Uri ? uri : await chooseFolder();
      if (!target) return;
      // A folder from the explorer or the palette; a JSON file from the explorer: the
      // link set it belongs to, as "Open With… → birlink" opens it (any file name).
      const { type } = await vscode.workspace.fs.stat(target);
      const set = type & vscode.FileType.Directory ? await folderSet(target, target) : await linkSetOf(target);
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `birlink: ${basename(target)}`, vscode.ViewColumn.Active, {});
      new Inspector(context, panel, set);
    }),
    vscode.commands.registerCommand('birlink.relink', () => Inspector.active?.load()),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      // A panel VS Code restores after a reload: its link set is in its state.
      async deserializeWebviewPanel(panel, state) {
        const root = state?.root ? vscode.Uri.parse(state.root) : undefined;
        if (!root) return panel.dispose();
        const set = state.origin ? await linkSetOf(vscode.Uri.parse(state.origin)) : await folderSet(root, root);
        new Inspector(context, panel, set);
      },
    }),
  );
}

function deactivate() {}

async function chooseFolder() {
  const folders = vscode.workspace.workspaceFolders || [];
  if (folders.length === 1) return folders[0].uri;
  if (folders.length > 1) {
    const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'The folder to link (a work directory, or dumps)' });
    return picked?.uri;
  }
  const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Link' });
  return chosen?.[0];
}

function basename(uri) {
  const parts = uri.path.split('/').filter(Boolean);
  return parts[parts.length - 1] || uri.path;
}

function parent(uri) {
  return vscode.Uri.joinPath(uri, '..');
}

/** The link set a file belongs to: its work directory (the folder holding its `ncNN`
 *  folder), else its folder's per-core files; a bundle alone. */
async function linkSetOf(file) {
  const name = basename(file);
  if (name.endsWith('.birlink.json')) {
    return { root: parent(file), files: [{ uri: file, name }], origin: file };
  }
  const parts = file.path.split('/');
  const at = parts.map(isCoreFolder).lastIndexOf(true);
  if (at > 0) {
    const root = file.with({ path: parts.slice(0, at).join('/') || '/' });
    const set = await folderSet(root, root);
    set.origin = file;
    return set;
  }
  const folder = parent(file);
  const files = [];
  for (const [entry, type] of await vscode.workspace.fs.readDirectory(folder)) {
    if (type & vscode.FileType.File && entry.toLowerCase().endsWith('.json')) {
      files.push({ uri: vscode.Uri.joinPath(folder, entry), name: entry });
    }
  }
  files.sort((a, b) => byName(a.name, b.name));
  return { root: folder, files, origin: file };
}

/** Files chosen in a dialog, named from the folder that holds them all (its own name
 *  first, `/`-separated, as a dropped folder names them): per-core files of two cores'
 *  folders keep the folders that tell them apart. */
function filesSet(uris) {
  const folders = uris.map((u) => parent(u).path.split('/'));
  let common = folders[0];
  for (const parts of folders.slice(1)) {
    let n = 0;
    while (n < common.length && n < parts.length && common[n] === parts[n]) n++;
    common = common.slice(0, n);
  }
  const root = uris[0].with({ path: common.join('/') || '/' });
  const top = basename(root);
  const files = uris.map((uri) => ({ uri, name: `${top}/${uri.path.slice(root.path.replace(/\/$/, '').length + 1)}` }));
  files.sort((a, b) => byName(a.name, b.name));
  return { root, files, origin: uris.length === 1 ? uris[0] : undefined };
}

/** Every linkable file below `folder`, named as a dropped folder names them (the
 *  folder's own name first, `/`-separated), in path order. As `birlink open DIR` walks:
 *  a symbolic link to a file is read, one to a folder is not entered (a work directory's
 *  `sgLnk/` links back into the cores' folders, and a link to a parent never ends). */
async function folderSet(folder, root) {
  const top = basename(root);
  const files = [];
  const walk = async (dir, prefix) => {
    const entries = await vscode.workspace.fs.readDirectory(dir);
    entries.sort((a, b) => byName(a[0], b[0]));
    for (const [entry, type] of entries) {
      if (files.length >= MAX_FILES) return;
      const uri = vscode.Uri.joinPath(dir, entry);
      if (type & vscode.FileType.Directory) {
        if (!(type & vscode.FileType.SymbolicLink)) await walk(uri, `${prefix}${entry}/`);
      } else if (type & vscode.FileType.File && linkable(entry)) files.push({ uri, name: `${prefix}${entry}` });
    }
  };
  await walk(folder, `${top}/`);
  files.sort((a, b) => byName(a.name, b.name));
  return { root: folder, files };
}

/** The CSP nonce of one webview's scripts: 128 random bits from the OS. */
function nonce() {
  return crypto.randomBytes(16).toString('hex');
}

/** One inspector: a webview showing one link set. */
class Inspector {
  /** The inspector last focused (for `birlink.relink`). */
  static active = undefined;

  constructor(context, panel, set) {
    this.panel = panel;
    this.set = set;
    this.loads = 0;
    this.changed = false;
    const web = vscode.Uri.joinPath(context.extensionUri, 'web');
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [web, media] };
    panel.webview.html = this.html(panel.webview, web, media);
    const disposables = [];
    panel.webview.onDidReceiveMessage((message) => this.receive(message).catch((error) => {
      console.error('birlink:', error);
      vscode.window.showErrorMessage(`birlink: ${error && error.message ? error.message : error}`);
    }), undefined, disposables);
    panel.onDidChangeViewState(() => {
      if (panel.active) Inspector.active = this;
    }, undefined, disposables);
    if (panel.active) Inspector.active = this;
    this.watch();
    panel.onDidDispose(() => {
      if (Inspector.active === this) Inspector.active = undefined;
      for (const d of disposables) d.dispose();
      for (const d of this.watching) d.dispose();
    });
  }

  /** A file of the link set that changes on disk — a new compile — makes the view
   *  offer to link again (the set compared against stays as it was read). Watched
   *  again when a set is chosen in the view. */
  watch() {
    for (const d of this.watching ?? []) d.dispose();
    const changed = (uri) => {
      if (this.set.files.some((f) => f.uri.toString() === uri.toString()) || /bir_debug|\.birlink\.json$|log-neuron-cc/.test(uri.path)) {
        this.changed = true;
        this.post({ type: 'changed', file: uri.path });
      }
    };
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.set.root, '**/*.{json,txt,log}'));
    this.watching = [watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed)];
  }

  html(webview, web, media) {
    const id = nonce();
    const uri = (base, name) => webview.asWebviewUri(vscode.Uri.joinPath(base, name)).toString();
    const assets = Object.fromEntries(APP.map((name) => [name, uri(web, name)]));
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${id}' ${webview.cspSource} 'wasm-unsafe-eval'`,
      `style-src ${webview.cspSource}`,
      "style-src-attr 'unsafe-inline'",
      `img-src ${webview.cspSource} data: blob:`,
      `font-src ${webview.cspSource}`,
      // blob: the worker's wasm, which the bridge hands it as a blob.
      `connect-src ${webview.cspSource} blob:`,
      'worker-src blob:',
      "frame-src 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    const config = { assets, root: this.set.root.toString(), origin: this.set.origin?.toString() };
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>birlink</title>
<link rel="stylesheet" href="${assets['style.css']}">
<link rel="stylesheet" href="${uri(media, 'vscode.css')}">
<script nonce="${id}" id="birlink-vscode" type="application/json">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script nonce="${id}" type="module" src="${uri(media, 'bridge.js')}"></script>
</head>
<body></body>
</html>`;
  }

  post(message) {
    return this.panel.webview.postMessage(message);
  }

  async receive(message) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'started') {
      this.state = message.state || {};
      // Names the window the page is to obey, before anything it obeys.
      await this.post({ type: 'host' });
      await this.load();
    } else if (message.type === 'relink') {
      await this.load();
    } else if (message.birlink === 'open') {
      await this.open(message);
    } else if (message.birlink === 'pick') {
      await this.pick(message);
    } else if (message.birlink === 'linked') {
      this.verdict = message;
    } else if (message.birlink === 'error') {
      vscode.window.showErrorMessage(`birlink: the page could not take the link set: ${message.message} (${message.code})`);
    }
  }

  /** Reads the link set (and `against`, a set chosen to compare against) and hands it
   *  to the page as its `load`, one file per message (a large set never crosses in one
   *  message; the bridge keeps each as a Blob and gives the page the `load` once all are
   *  there), with progress. The page keeps the set it compares against across loads
   *  that bring none (embed spec §4), and closes it when the user does: it is sent once,
   *  when chosen. */
  async load(against = undefined) {
    const sides = [['shown', this.set], ...(against ? [['against', against]] : [])];
    const total = sides.reduce((n, [, set]) => n + set.files.length, 0);
    const id = `vscode-${++this.loads}`;
    this.changed = false;
    await this.post({ type: 'load-start', id, view: this.state?.view, select: this.state?.select });
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `birlink: reading ${total} files` },
      async (progress) => {
        let done = 0;
        for (const [side, set] of sides) {
          let bytes = 0;
          for (const [i, file] of set.files.entries()) {
            const data = await vscode.workspace.fs.readFile(file.uri);
            bytes += data.byteLength;
            if (bytes > MAX_BYTES) {
              vscode.window.showWarningMessage(`birlink: the link set is over ${MAX_BYTES >> 30} GiB; linked the first ${i} files`);
              break;
            }
            // A plain Uint8Array: a Node Buffer would cross as a JSON object four times larger.
            const plain = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
            await this.post({ type: 'load-file', id, side, name: file.name, data: plain });
            done += 1;
            progress.report({ increment: 100 / total, message: `${done}/${total}` });
          }
        }
      },
    );
    await this.post({ type: 'load-end', id });
  }

  /** "Open files" / "Open folder" in the page: VS Code's own dialog, which browses the
   *  machine the files are on (the remote one under Remote-SSH), then the chosen set
   *  linked in this view, shown or compared against. */
  async pick(message) {
    const folder = message.folder === true;
    const against = message.side === 'against';
    const chosen = await vscode.window.showOpenDialog({
      canSelectFiles: !folder,
      canSelectFolders: folder,
      canSelectMany: !folder,
      defaultUri: this.set.root,
      openLabel: against ? 'Compare against' : 'Link',
      title: against ? 'birlink: the link set to compare against' : 'birlink: the link set to open',
    });
    if (!chosen || chosen.length === 0) return;
    const set = folder ? await folderSet(chosen[0], chosen[0]) : filesSet(chosen);
    if (against) return this.load(set);
    this.set = set;
    this.panel.title = `birlink: ${basename(folder ? chosen[0] : set.root)}`;
    // What a restored panel reopens.
    await this.post({ type: 'set', root: set.root.toString(), origin: set.origin?.toString() });
    this.watch();
    await this.load();
  }

  /** Opens a file of the link set at a JSON location, or the kernel line behind an
   *  entity when that file is in the workspace. */
  async open(message) {
    if (typeof message.file === 'string') {
      const file = this.set.files.find((f) => f.name === message.file);
      if (!file) return vscode.window.showWarningMessage(`birlink: ${message.file} is not a file of this link set`);
      const line = Math.max(0, (message.line | 0) - 1);
      const column = Math.max(0, (message.column | 0) - 1);
      const position = new vscode.Position(line, column);
      const document = await vscode.workspace.openTextDocument(file.uri);
      await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.Beside,
        selection: new vscode.Range(position, position),
        preview: true,
      });
    } else if (typeof message.source === 'string') {
      const match = /^(.*):(\d+)$/.exec(message.source);
      if (!match) return;
      const [, name, line] = match;
      const found = await vscode.workspace.findFiles(`**/${name.split('/').pop()}`, undefined, 20);
      const best = found.find((u) => u.path.endsWith(name)) || found[0];
      if (!best) return vscode.window.showInformationMessage(`birlink: ${name} is not in the workspace`);
      const position = new vscode.Position(Math.max(0, Number(line) - 1), 0);
      const document = await vscode.workspace.openTextDocument(best);
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, selection: new vscode.Range(position, position) });
    }
  }
}

module.exports = { activate, deactivate, linkSetOf, folderSet, linkable };
