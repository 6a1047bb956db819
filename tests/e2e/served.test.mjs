// What a new user sees first: the page `scripts/serve.sh` serves (`trunk serve`), not
// a copy of dist/. Its first console must be clean: no error, no CSP violation (Trunk's
// autoreload script is inline, which the page's CSP blocks, so it is turned off).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launch, open, verdict, root } from './harness.mjs';

let browser;
let serving;

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function until(url, deadline) {
  while (Date.now() < deadline) {
    if (serving.exitCode !== null) throw new Error(`scripts/serve.sh exited with ${serving.exitCode}:\n${serving.log}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`scripts/serve.sh did not serve ${url} in time:\n${serving.log}`);
}

before(async () => {
  browser = await launch();
  const port = await freePort();
  // Its own process group, so the whole tree (the script, trunk) stops with it.
  serving = spawn(path.join(root, 'scripts/serve.sh'), ['--port', String(port)], { cwd: root, detached: true });
  serving.log = '';
  serving.stdout.on('data', (d) => { serving.log += d; });
  serving.stderr.on('data', (d) => { serving.log += d; });
  serving.url = `http://127.0.0.1:${port}/`;
  // The first serve may build: give it the time a release build takes here.
  await until(serving.url, Date.now() + 10 * 60 * 1000);
});

after(async () => {
  await browser?.close();
  if (serving && serving.exitCode === null) process.kill(-serving.pid, 'SIGTERM');
});

test('the page scripts/serve.sh serves links the default sample with a clean console', async () => {
  const page = await open(browser, serving.url, {
    init: () => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    },
  });
  const text = await verdict(page, 60000);
  assert.match(text, /linked nc00\/sgLnk/);
  await page.keyboard.press('2');
  await page.locator('#call-graph-svg').waitFor();
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(page.errors, [], 'no console error, no CSP report');
  const html = await (await fetch(serving.url)).text();
  assert.doesNotMatch(html, /<script>(?!<\/script>)/, 'no inline script in the served page');
});
