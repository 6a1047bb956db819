// The webview's side of birlink for VS Code: starts the web app (the built page's own
// files, served by `asWebviewUri`) with what a host document gives it (`birlinkPage`,
// as a notebook's frame does): its worker's loader (a blob: URL, as a webview allows
// workers), and `post`, through which every message the page has for its host reaches
// the extension (a webview hears its host only through `acquireVsCodeApi`). Messages
// from the extension reach the page directly: they come from its parent frame, of its
// own origin, which the page trusts (embed spec §4).
//
// What survives a hidden tab is kept with `setState` (not `retainContextWhenHidden`):
// the view and selection, as the page's unprompted `state` message says them, handed
// back to the extension when the page starts again, which loads the link set with them. The theme follows VS
// Code's (light, dark, high contrast).

const vscode = acquireVsCodeApi();
const config = JSON.parse(document.getElementById('birlink-vscode').textContent);
const saved = vscode.getState() || {};

function save(update) {
  Object.assign(saved, update, { root: config.root, origin: config.origin });
  vscode.setState(saved);
}
save({});

// The theme: VS Code marks the body `vscode-light`, `vscode-dark`, `vscode-high-contrast`
// (or `vscode-high-contrast-light`).
function theme() {
  const classes = document.body.classList;
  const dark = classes.contains('vscode-dark') || (classes.contains('vscode-high-contrast') && !classes.contains('vscode-high-contrast-light'));
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.classList.toggle('high-contrast', classes.contains('vscode-high-contrast') || classes.contains('vscode-high-contrast-light'));
}
theme();
new MutationObserver(theme).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// Every message the extension sends, heard by one listener with one trust rule: from
// this document's own origin, and, once the extension's first message (`host`) has named
// the window its messages come from (VS Code hides the webview's parent), from that
// window alone. The messages (docs/vscode.md lists them): `host`; the link set, one file
// per message (`load-start`, `load-file`…, `load-end`: a large set never crosses in
// one message), each kept as a Blob (outside the page's wasm memory), then handed to
// the page as its protocol's `load`, from the window the page obeys; `set` (another
// link set opened in this view: what a restored panel reopens); `changed` (a dump
// changed on disk: offer to link again).
let pending = null;
window.addEventListener('message', (event) => {
  const message = event.data;
  const page = window.birlinkPage;
  if (!message || typeof message !== 'object' || event.origin !== location.origin || !page) return;
  if (message.type === 'host') {
    if (!page.host) page.host = event.source;
    return;
  }
  if (!page.host || event.source !== page.host) return;
  switch (message.type) {
    case 'load-start':
      pending = { id: message.id, files: [], against: [], view: message.view, select: message.select };
      break;
    case 'load-file':
      if (pending?.id === message.id) {
        const file = { name: message.name, data: new Blob([message.data]) };
        (message.side === 'against' ? pending.against : pending.files).push(file);
      }
      break;
    case 'load-end':
      if (pending?.id === message.id) {
        const request = { birlink: 'load', id: pending.id, files: pending.files };
        if (pending.against.length) request.against = pending.against;
        if (pending.view) request.view = pending.view;
        if (pending.select) request.select = pending.select;
        pending = null;
        window.dispatchEvent(new MessageEvent('message', { data: request, origin: location.origin, source: page.host }));
      }
      break;
    case 'set':
      config.root = message.root;
      config.origin = message.origin;
      save({});
      break;
    case 'changed':
      offerRelink();
      break;
  }
});

// A dump changed on disk: offer to link again (once).
function offerRelink() {
  if (document.getElementById('birlink-changed')) return;
  const bar = document.createElement('div');
  bar.id = 'birlink-changed';
  bar.className = 'vscode-changed';
  bar.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = 'A file of this link set changed on disk. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Link again';
  button.addEventListener('click', () => {
    bar.remove();
    vscode.postMessage({ type: 'relink' });
  });
  bar.append(text, button);
  document.body.prepend(bar);
}

// The worker: its glue and the loader in one blob (the webview's CSP takes workers from
// blob: only), its wasm in another (a worker made from a blob does not reach the
// extension's files: the webview serves those to this document only).
const [glue, wasm] = await Promise.all([
  fetch(config.assets['worker.js']).then((r) => r.text()),
  fetch(config.assets['worker_bg.wasm']).then((r) => r.arrayBuffer()),
]);
const wasmUrl = URL.createObjectURL(new Blob([wasm], { type: 'application/wasm' }));
const loader = URL.createObjectURL(new Blob([
  glue,
  `\nwasm_bindgen({ module_or_path: ${JSON.stringify(wasmUrl)} });\n`,
], { type: 'text/javascript' }));

window.birlinkPage = {
  query: '',
  fragment: '',
  workerLoader: loader,
  editor: true,
  post(message) {
    if (message && message.birlink === 'ready') {
      // The page (again, after a hidden tab): the extension loads the link set, in the
      // view it was left in.
      vscode.postMessage({ type: 'started', state: saved.state || {} });
    } else if (message && message.birlink === 'state' && message.id === null) {
      // The page's view or selection changed (it says so unprompted in an editor): what
      // a hidden tab comes back to.
      const state = {};
      if (message.view) state.view = message.view;
      if (message.select) state.select = message.select;
      save({ state });
      return;
    }
    vscode.postMessage(message);
  },
};

const { default: init } = await import(config.assets['app.js']);
await init({ module_or_path: config.assets['app_bg.wasm'] });
theme();
document.documentElement.dataset.ready = 'true';
