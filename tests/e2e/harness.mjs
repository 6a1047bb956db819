// Shared by the end-to-end tests: serve dist/ on 127.0.0.1, drive Debian's chromium
// with playwright-core (no browser download), open the inspector and wait for a run.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(root, 'dist');
/** The debug build (`trunk build --dist dist-debug`): yew checks its hooks there. */
export const distDebug = path.join(root, 'dist-debug');
export const samples = path.join(root, 'www/samples');

/** The newest build of the CLI: `cargo test` (scripts/test.sh) refreshes the debug one,
 *  and a release one left from an older checkout must not stand in for it. */
export function cli() {
  const found = ['target/release/birlink', 'target/debug/birlink']
    .map((p) => path.join(root, p))
    .filter((p) => fs.existsSync(p))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!found) throw new Error('build the CLI first (cargo build, or cargo test)');
  return found;
}

const scratches = [];
process.on('exit', () => { for (const dir of scratches) fs.rmSync(dir, { recursive: true, force: true }); });

/** A new scratch folder `birlink-NAME-XXXXXX` in the system's temporary folder, removed
 *  when the test file's process exits, passed or failed (a run of the suite used to leave
 *  about 600 MB there). */
export function scratch(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `birlink-${name}-`));
  scratches.push(dir);
  return dir;
}

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves `dir` on a free port of 127.0.0.1 under `prefix` (a sub-path such as
 *  `/a/b/birlink/`; anything outside it is 404), plus `pages` (path → HTML or
 *  `{ body, type, headers }`) for host pages. Every request is logged in `requests`
 *  as `{ path, status }`. Resolves to { url, origin, requests, close }. */
export function serve(dir = dist, { prefix = '/', pages = {} } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const reply = (status, body, headers = {}) => {
      requests.push({ path: url.pathname, status });
      res.writeHead(status, headers).end(body);
    };
    const page = pages[url.pathname];
    if (page !== undefined) {
      const { body, type = 'text/html; charset=utf-8', headers = {} } = typeof page === 'string' ? { body: page } : page;
      reply(200, body, { 'content-type': type, ...headers });
      return;
    }
    if (!url.pathname.startsWith(prefix)) { reply(404, 'not found'); return; }
    let file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length - 1)));
    if (!file.startsWith(dir)) { reply(403, 'forbidden'); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { reply(404, 'not found'); return; }
      // As GitHub Pages does: any origin may load the files (a host page's
      // `<script type="module" src=…/birlink-element.js>` is a CORS request).
      reply(200, data, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*' });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      const origin = `http://127.0.0.1:${port}`;
      resolve({ url: `${origin}${prefix}`, origin, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Chromium as the machine has it: headless, sandbox off (root), no network chatter. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page at `url` that fails the test on any page error or console error. `init`
 *  runs in the page before any of its scripts. */
export async function open(browser, url, { viewport = { width: 1280, height: 800 }, init } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  const warnings = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.errors = errors;
  page.warnings = warnings;
  await page.goto(url);
  return page;
}

/** Waits until a run has finished and returns the verdict text. */
export async function verdict(page, timeout = 30000) {
  const locator = page.locator('#verdict');
  await locator.waitFor({ state: 'visible', timeout });
  return locator.innerText();
}

/** Waits for the verdict to change away from `previous` (a new run finished). */
export async function nextVerdict(page, previous, timeout = 30000) {
  await page.waitForFunction(
    (before) => { const v = document.querySelector('#verdict'); return v && v.innerText !== before; },
    previous, { timeout });
  return page.locator('#verdict').innerText();
}

/** The bytes of a download triggered by clicking `selector`. */
export async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const stream = await file.createReadStream();
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
