// `birlink open` as a pip user has it: the wheel's command (BIRLINK_VENV, its web app
// built in) serves the inspector and exactly the files named on loopback; Chromium
// opens the printed URL and finds the verdict; a folder in the `nc00/sg00/…` layout
// keeps its relative names; anything else is refused; it listens on 127.0.0.1 only and
// stops on Ctrl-C.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { launch, open, verdict, samples, cli } from './harness.mjs';

const venv = process.env.BIRLINK_VENV;
let browser;
let work;

before(async () => {
  assert.ok(venv && fs.existsSync(path.join(venv, 'bin', 'birlink')), 'BIRLINK_VENV must hold the installed wheel');
  // A compiler work directory's layout: one folder per core, a subgraph folder in it.
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-open-'));
  const gen = path.join(work, 'gen');
  execFileSync(cli(), ['gen', '--cores', '2', '--out', gen], { stdio: 'ignore' });
  for (const core of ['nc00', 'nc01']) {
    fs.mkdirSync(path.join(work, 'dump', core, 'sg00'), { recursive: true });
    const sg = path.join(work, 'dump', core, 'sg00');
    fs.copyFileSync(path.join(gen, `${core}.json`), path.join(sg, 'bir_debug.12.after-lower_sync.before-lower_act.penguin.json'));
    fs.copyFileSync(path.join(gen, `${core}.json`), path.join(sg, 'bir_debug.11.after-lower_dma.before-lower_sync.penguin.json'));
    for (const other of ['def.json', 'tensor_map.json', 'PE.json']) fs.writeFileSync(path.join(sg, other), '{"not": "bir"}');
  }
  fs.writeFileSync(path.join(work, 'dump', 'command.txt'), 'neuronx-cc compile model.hlo --output model.neff\n');
  browser = await launch();
});
after(async () => { await browser?.close(); fs.rmSync(work, { recursive: true, force: true }); });

/** Starts `birlink open ARGS --no-browser`; resolves to { url, child }. */
function serve(args) {
  const child = spawn(path.join(venv, 'bin', 'birlink'), ['open', ...args, '--no-browser'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // How it ended, recorded from the start (it may end before anyone waits).
  child.ended = new Promise((r) => child.on('exit', (code, signal) => r(code ?? signal)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ url: line.trim(), child, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`birlink open exited ${code}: ${err}`)));
  });
}

/** Whether a TCP socket listens on 127.0.0.1:port and on no other address. */
function listensOnLoopbackOnly(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const rows = ['/proc/net/tcp', '/proc/net/tcp6']
    .filter((f) => fs.existsSync(f))
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').slice(1))
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length > 3 && c[3] === '0A' && c[1].endsWith(`:${hex}`));
  return rows.length > 0 && rows.every((c) => c[1] === `0100007F:${hex}`);
}

test('the wheel\'s birlink open links the files it was given, and serves nothing else', async () => {
  const { url, child, stderr } = await serve([path.join(samples, 'error-1514.json'), '--view', 'diagnostics']);
  try {
    const parsed = new URL(url);
    assert.equal(parsed.hostname, '127.0.0.1');
    assert.match(parsed.pathname, /^\/[0-9a-f]{32}\/$/, 'an unguessable path');
    assert.ok(listensOnLoopbackOnly(Number(parsed.port)), 'it listens on 127.0.0.1 only');
    await new Promise((r) => setTimeout(r, 100));
    assert.match(stderr(), /ssh -L/);
    const page = await open(browser, url);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    assert.match(await verdict(page), /link failed in vnc_remote_addr_map/);
    await page.locator('#tab-diagnostics[aria-selected=true]').waitFor();
    assert.deepEqual(page.errors, []);
    assert.deepEqual(requests.filter((u) => !u.startsWith(parsed.origin)), [], 'nothing leaves the machine');
    // The app and the named file, and nothing else.
    const base = `${parsed.origin}${parsed.pathname}`;
    const status = async (u, init) => (await fetch(u, init)).status;
    assert.equal(await status(`${base}files/0/error-1514.json`), 200);
    assert.equal(await status(`${base}app_bg.wasm`), 200);
    for (const refused of [`${base}files/1/x.json`, `${base}files/`, `${base}../Cargo.toml`, `${base}%2e%2e/Cargo.toml`,
      `${base}samples/`, `${parsed.origin}/`, `${parsed.origin}/${'0'.repeat(32)}/`]) {
      assert.equal(await status(refused), 404, refused);
    }
    assert.equal(await status(base, { method: 'POST' }), 405);
    const headers = (await fetch(`${base}files/0/error-1514.json`)).headers;
    assert.equal(headers.get('access-control-allow-origin'), null, 'no CORS header');
    await page.context().close();
  } finally {
    child.kill('SIGINT');
  }
  const code = await child.ended;
  assert.ok(code === 'SIGINT' || code === 130 || code === 0, `Ctrl-C stops it (${code})`);
});

test('a work directory links its lower_sync dumps, under their names, and serves nothing else of it', async () => {
  const { url, child, stderr } = await serve([path.join(work, 'dump')]);
  try {
    const page = await open(browser, url);
    assert.match(await verdict(page), /linked nc00/);
    const text = await page.locator('#load-panel').innerText();
    assert.match(text, /dump\/nc00\/sg00\/bir_debug\.12\.after-lower_sync/, text);
    assert.match(text, /dump\/nc01\/sg00\/bir_debug\.12\.after-lower_sync/);
    // Only the dumps the link reads: the other pass and the backend's files stay on disk.
    assert.doesNotMatch(text, /lower_dma|def\.json|tensor_map|PE\.json/, text);
    assert.match(stderr(), /set aside 9 files: 2 dumps of other passes, 2 tensor maps, 4 backend artifacts, 1 compile command/, stderr());
    const base = url.split('?')[0];
    assert.equal((await fetch(`${base}files/2/def.json`)).status, 404, 'a set-aside file is not served');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    child.kill('SIGINT');
  }
});

test('a build without the web app says so and how to get one', () => {
  // The development build (`cargo test`'s) has no web app built in.
  const dev = path.join(path.dirname(path.dirname(samples)), 'target/debug/birlink');
  const { BIRLINK_WEB_DIR: _unused, ...env } = process.env;
  assert.throws(
    () => execFileSync(dev, ['open', path.join(samples, 'error-1514.json'), '--no-browser'], { stdio: 'pipe', env }),
    (error) => error.status === 2 && /built without the web app.*pip install birlink/s.test(String(error.stderr)),
  );
});
