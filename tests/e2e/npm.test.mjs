// The npm package as a docs site has it: the tarball `cargo xtask dist` wrote
// (target/dist/birlink-VERSION.tgz) installed into a scratch site with no network, the
// site serving its own page and `node_modules/birlink/` as they are; Chromium shows
// `<birlink-view>` with a shipped sample and with the site's own dumps, and nothing is
// requested from anywhere but the site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, cli } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const version = JSON.parse(fs.readFileSync(path.join(root, 'npm/package.json'), 'utf8')).version;
const tarball = path.join(root, 'target/dist', `birlink-${version}.tgz`);
let site;
let server;
let browser;

before(async () => {
  assert.ok(fs.existsSync(tarball), `${tarball} is missing: run \`cargo xtask dist npm\``);
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-npm-'));
  fs.writeFileSync(path.join(site, 'package.json'), JSON.stringify({ name: 'scratch-docs', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: site, stdio: 'pipe' });
  execFileSync(cli(), ['gen', '--cores', '2', '--out', path.join(site, 'dumps')], { stdio: 'ignore' });
  fs.writeFileSync(path.join(site, 'favicon.ico'), '');
  fs.mkdirSync(path.join(site, 'guide'));
  fs.writeFileSync(path.join(site, 'guide', 'index.html'), `<!doctype html><meta charset="utf-8"><title>Linking across cores</title>
<script type="module" src="../node_modules/birlink/birlink-element.js"></script>
<script type="module" src="events.js"></script>
<h1>Linking across cores</h1>
<birlink-view id="sample" sample="error-1514" view="diagnostics"></birlink-view>
<birlink-view id="ours" src="../dumps/nc00.json ../dumps/nc01.json" lnc="2" view="callgraph"></birlink-view>`);
  fs.writeFileSync(path.join(site, 'guide', 'events.js'), `window.linked = [];
document.addEventListener('birlink-linked', (e) => window.linked.push({ id: e.target.id, detail: e.detail }));`);
  server = await serve(site);
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(site, { recursive: true, force: true }); });

test('the installed package is the built page, its element the module entry', () => {
  const installed = path.join(site, 'node_modules/birlink');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.version, version);
  assert.equal(manifest.module, './birlink-element.js');
  assert.equal(manifest.exports['.'], './birlink-element.js');
  for (const file of ['birlink-element.js', 'index.html', 'app.js', 'app_bg.wasm', 'worker.js', 'worker_bg.wasm', 'samples/index.json', 'README.md']) {
    assert.ok(fs.existsSync(path.join(installed, file)), file);
  }
  assert.deepEqual(manifest.dependencies ?? {}, {}, 'nothing else to install');
  assert.match(fs.readFileSync(path.join(installed, 'README.md'), 'utf8'), /npm install birlink/);
});

test('a docs page shows <birlink-view> from node_modules, with a sample and with its own dumps', async () => {
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  await page.goto(`${server.url}guide/`);
  await page.waitForFunction(() => ['sample', 'ours'].every((id) => window.linked.some((e) => e.id === id)), null, { timeout: 60000 });
  const linked = await page.evaluate(() => window.linked);
  const sample = linked.find((e) => e.id === 'sample').detail;
  assert.equal(sample.ok, false);
  assert.equal(sample.failed_pass, 'vnc_remote_addr_map');
  assert.ok(sample.codes.includes('1514'));
  const ours = linked.find((e) => e.id === 'ours').detail;
  assert.equal(ours.ok, true);
  const frame = page.frames().find((f) => f.url().includes('sample=error-1514'));
  assert.match(await frame.locator('#verdict').innerText(), /failed in vnc_remote_addr_map/);
  const graph = page.frames().find((f) => f.url().includes('embed=1') && f.url().includes('lnc=2'));
  await graph.locator('#call-graph-svg').waitFor();
  assert.match(await graph.locator('#call-graph-svg').evaluate((svg) => svg.textContent), /nc01/);
  assert.ok(requests.some((u) => u.startsWith(`${server.origin}/node_modules/birlink/`)), 'served from node_modules');
  assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin)), [], 'nothing requested from elsewhere');
  assert.deepEqual(errors, []);
  await page.screenshot({ path: path.join(root, 'target', 'npm-site.png'), fullPage: true });
  await page.close();
});
