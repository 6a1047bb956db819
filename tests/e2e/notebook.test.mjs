// `birlink.show` in real JupyterLab, driven by Chromium: a notebook cell shows the
// inspector and its verdict, and no request leaves the machine. JupyterLab and the
// wheel (`birlink[notebook]`) are installed in the virtual environment BIRLINK_VENV
// (scripts/test.sh makes it from the wheel built by `cargo xtask dist`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launch, samples } from './harness.mjs';

const venv = process.env.BIRLINK_VENV;
let lab;
let browser;
let port;
const token = 'birlink-e2e';
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-notebook-'));

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
  });
}

async function up(url, timeout) {
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    try { if ((await fetch(url)).ok) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`JupyterLab did not answer at ${url}`);
}

before(async () => {
  assert.ok(venv && fs.existsSync(path.join(venv, 'bin', 'jupyter')), 'BIRLINK_VENV must hold jupyterlab and birlink[notebook]');
  port = await freePort();
  const notebook = {
    cells: [{
      cell_type: 'code', metadata: {}, outputs: [], execution_count: null,
      source: [
        'import birlink\n',
        `view = birlink.show([${JSON.stringify(path.join(samples, 'error-1514.json'))}], view="diagnostics")\n`,
        'view',
      ],
    }],
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    nbformat: 4, nbformat_minor: 5,
  };
  fs.writeFileSync(path.join(home, 'show.ipynb'), JSON.stringify(notebook));
  const env = { ...process.env, HOME: home, JUPYTER_CONFIG_DIR: path.join(home, '.jupyter'), JUPYTER_DATA_DIR: path.join(home, '.local/share/jupyter'), PATH: `${path.join(venv, 'bin')}:${process.env.PATH}` };
  lab = spawn(path.join(venv, 'bin', 'jupyter'), [
    'lab', '--no-browser', '--allow-root', `--ServerApp.port=${port}`, '--ServerApp.ip=127.0.0.1',
    `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${home}`,
    // Nothing fetched from outside: no news, no update checks.
    '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate',
  ], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  lab.stderr.on('data', () => {});
  await up(`http://127.0.0.1:${port}/api/status?token=${token}`, 90000);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  lab?.kill('SIGTERM');
  fs.rmSync(home, { recursive: true, force: true });
});

test('a notebook cell shows the inspector and its verdict, with nothing fetched from outside', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && /birlink|wasm|srcdoc/i.test(m.text())) errors.push(m.text()); });
  await page.goto(`http://127.0.0.1:${port}/lab/tree/show.ipynb?token=${token}`);
  // The notebook and its kernel.
  const cell = page.locator('.jp-Notebook .jp-Cell').first();
  await cell.waitFor({ timeout: 90000 });
  await page.waitForFunction(() => document.querySelector('.jp-Notebook-ExecutionIndicator, .jp-KernelStatus, [data-status]') !== null, null, { timeout: 90000 }).catch(() => {});
  await page.waitForTimeout(2000);
  await cell.locator('.jp-InputArea-editor').click();
  await page.keyboard.press('Shift+Enter');
  // The widget's frame, and the inspector in it.
  const frame = page.frameLocator('.jp-OutputArea iframe.birlink-frame');
  const verdict = frame.locator('#verdict');
  await verdict.waitFor({ timeout: 120000 });
  await page.waitForFunction(() => {
    const f = document.querySelector('.jp-OutputArea iframe.birlink-frame');
    return /failed/.test(f?.contentDocument?.querySelector('#verdict')?.innerText ?? '');
  }, null, { timeout: 120000 });
  assert.match(await verdict.innerText(), /link failed in vnc_remote_addr_map/);
  await frame.locator('#tab-diagnostics[aria-selected=true]').waitFor();
  assert.match(await frame.locator('#diagnostics-view').innerText(), /1514/);
  // No "Open in birlink": the frame has no address of its own.
  assert.equal(await frame.locator('#open-full').count(), 0);
  // Every request stayed on this machine (blob: URLs are the web app's own files).
  const outside = requests.filter((u) => !u.startsWith(`http://127.0.0.1:${port}/`) && !u.startsWith('blob:') && !u.startsWith('data:') && u !== 'about:srcdoc');
  assert.deepEqual(outside, [], 'no request leaves the machine');
  assert.deepEqual(errors, []);
  await context.close();
});
