// The example documentation site (examples/mdbook): an mdBook built at a sub-path
// (`/project/`), with birlink's dist/ beside its pages, embedding two link sets — a
// sample by element and by iframe, and the book's own per-core files by element — and
// a picture-and-link fallback. Every request stays inside the sub-path and is found.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, root, scratch } from './harness.mjs';

let site;
let browser;
before(async () => {
  const out = scratch('book');
  execFileSync(path.join(root, 'examples/mdbook/build.sh'), [out], { stdio: 'ignore' });
  site = await serve(out, { prefix: '/project/' });
  browser = await launch();
});
after(async () => { await browser?.close(); await site?.close(); });

async function page(name) {
  const tab = await browser.newPage();
  tab.errors = [];
  tab.on('console', (m) => { if (m.type() === 'error') tab.errors.push(m.text()); });
  tab.on('pageerror', (e) => tab.errors.push(e.message));
  await tab.addInitScript(() => {
    window.events = [];
    for (const type of ['birlink-ready', 'birlink-linked', 'birlink-selected', 'birlink-error'])
      document.addEventListener(type, (e) => window.events.push({ type, id: e.target.id, detail: e.detail }));
  });
  await tab.goto(`${site.url}${name}`);
  return tab;
}

test('the book embeds a failing sample twice: as an element and as a frame', async () => {
  const tab = await page('failures.html');
  const frames = () => tab.frames().filter((f) => f.url().includes('/project/birlink/'));
  await tab.waitForFunction(() => document.querySelectorAll('iframe').length >= 1);
  for (let i = 0; i < 100 && frames().length < 2; i += 1) await tab.waitForTimeout(200);
  assert.equal(frames().length, 2);
  for (const frame of frames()) {
    await frame.locator('#verdict').waitFor({ timeout: 60000 });
    assert.match(await frame.locator('#verdict').innerText(), /link failed in vnc_remote_addr_map/);
  }
  assert.deepEqual(tab.errors, []);
});

test('the book\'s own per-core files link in an element, and the fallback picture links to them', async () => {
  const tab = await page('ring.html');
  await tab.waitForFunction(() => window.events.some((e) => e.type === 'birlink-linked'), null, { timeout: 60000 });
  const linked = await tab.evaluate(() => window.events.find((e) => e.type === 'birlink-linked').detail);
  assert.equal(linked.ok, true, JSON.stringify(linked));
  assert.ok(await tab.evaluate(() => document.querySelector('img[src="ring-call-graph.svg"]').naturalWidth > 0), 'the picture loads');
  const href = await tab.evaluate(() => document.querySelector('img[src="ring-call-graph.svg"]').closest('a').href);
  const full = await browser.newPage();
  await full.goto(href);
  await full.locator('#verdict').waitFor({ timeout: 60000 });
  assert.match(await full.locator('#verdict').innerText(), /linked nc00/);
  assert.deepEqual(await full.locator('#load-panel .card .file').allInnerTexts(), ['nc00.json', 'nc01.json', 'nc02.json', 'nc03.json']);
  await full.close();
  assert.deepEqual(tab.errors, []);
});

test('every request of the site stays inside its sub-path and is found', async () => {
  const bad = site.requests.filter((r) => r.status !== 200 || !r.path.startsWith('/project/'));
  assert.deepEqual(bad, []);
  assert.ok(site.requests.some((r) => r.path === '/project/birlink/worker_bg.wasm'));
});
