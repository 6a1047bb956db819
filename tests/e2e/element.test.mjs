// <birlink-view> (embed spec §6) on a host page of another origin: two independent
// instances (a sample, and files the host serves), events, attribute changes,
// auto-height and a fixed one, and removal that leaves no frame and no error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, cli, scratch } from './harness.mjs';

let birlink;
let host;
let browser;

before(async () => {
  birlink = await serve();
  const out = scratch('element');
  execFileSync(cli(), ['gen', '--cores', '2', '--out', out], { stdio: 'ignore' });
  const pages = {
    '/favicon.ico': { body: '', type: 'image/x-icon' },
    '/examples/ring/nc00.json': { body: fs.readFileSync(path.join(out, 'nc00.json')), type: 'application/json' },
    '/examples/ring/nc01.json': { body: fs.readFileSync(path.join(out, 'nc01.json')), type: 'application/json' },
  };
  host = await serve(undefined, { prefix: '/nothing/', pages });
  pages['/docs/page.html'] = `<!doctype html><meta charset="utf-8"><title>docs</title>
<script type="module" src="${birlink.url}birlink-element.js"></script>
<script>
  window.events = [];
  for (const type of ['birlink-ready', 'birlink-linked', 'birlink-selected', 'birlink-error'])
    document.addEventListener(type, (e) => events.push({ type, id: e.target.id, detail: e.detail }));
</script>
<h1>Two link sets</h1>
<birlink-view id="one" sample="error-1514" view="diagnostics"></birlink-view>
<birlink-view id="two" src="../examples/ring/nc00.json ../examples/ring/nc01.json" lnc="2" flow="seeds" view="callgraph"></birlink-view>`;
  pages['/docs/one.html'] = `<!doctype html><meta charset="utf-8"><title>one sample</title>
<script type="module" src="${birlink.url}birlink-element.js"></script>
<script>
  window.events = [];
  document.addEventListener('birlink-linked', (e) => events.push({ type: 'birlink-linked', id: e.target.id, detail: e.detail }));
</script>
<birlink-view id="only" sample="matmul-2core"></birlink-view>`;
  browser = await launch();
});
after(async () => { await browser?.close(); await host?.close(); await birlink?.close(); });

const events = (page, type, id) => page.evaluate(([type, id]) => window.events.filter((e) => e.type === type && e.id === id), [type, id]);
const frameOf = (page, id) => page.frames().find((f) => f.parentFrame() && f.url().includes('embed=1') && f.url().includes(id === 'one' ? 'sample=error-1514' : 'lnc=2'));

test('two independent instances on a page of another origin', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/docs/page.html`);

  // The sample instance links from its query; the other from the host's files, by message.
  await page.waitForFunction(() => window.events.filter((e) => e.type === 'birlink-linked' && e.id === 'two').length === 1, null, { timeout: 60000 });
  const [linked] = await events(page, 'birlink-linked', 'two');
  assert.equal(linked.detail.ok, true);
  assert.deepEqual(linked.detail.codes, []);
  assert.ok((await events(page, 'birlink-ready', 'two')).length >= 1);
  // The sample instance says its verdict too (the commonest use: a docs page showing
  // a sample), once, with no id (no host request asked for it).
  await page.waitForFunction(() => window.events.some((e) => e.type === 'birlink-linked' && e.id === 'one'), null, { timeout: 60000 });
  const sampled = await events(page, 'birlink-linked', 'one');
  assert.equal(sampled.length, 1, JSON.stringify(sampled));
  assert.equal(sampled[0].detail.id, null);
  assert.equal(sampled[0].detail.ok, false);
  assert.equal(sampled[0].detail.failed_pass, 'vnc_remote_addr_map');
  assert.ok(sampled[0].detail.codes.includes('1514'));
  const one = frameOf(page, 'one');
  await one.locator('#verdict').waitFor({ timeout: 60000 });
  assert.match(await one.locator('#verdict').innerText(), /failed in vnc_remote_addr_map/);
  assert.equal(await one.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-diagnostics');
  const two = frameOf(page, 'two');
  await two.locator('#call-graph-svg').waitFor();

  // Auto-height: the frame takes its content's height.
  await page.waitForFunction(() => {
    const frame = document.getElementById('two').shadowRoot.querySelector('iframe');
    return frame.style.height !== '480px';
  }, null, { timeout: 10000 });
  const height = await page.evaluate(() => parseInt(document.getElementById('two').shadowRoot.querySelector('iframe').style.height, 10));
  assert.ok(height > 200 && height < 3000, `height ${height}`);

  // A selection in one instance is its event only.
  await two.locator('.node.core-fn').first().click();
  await page.waitForFunction(() => window.events.some((e) => e.type === 'birlink-selected'));
  const selected = await page.evaluate(() => window.events.filter((e) => e.type === 'birlink-selected'));
  assert.deepEqual(selected.map((e) => [e.id, e.detail.select]), [['two', 'function:0:nc00']]);

  // An attribute change updates that instance only.
  await page.evaluate(() => document.getElementById('two').setAttribute('view', 'barriers'));
  await two.locator('#barriers-view').waitFor();
  assert.equal(await one.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-diagnostics');
  await page.evaluate(() => document.getElementById('one').setAttribute('height', '300'));
  assert.equal(await page.evaluate(() => document.getElementById('one').shadowRoot.querySelector('iframe').style.height), '300px');
  await page.evaluate(() => document.getElementById('one').setAttribute('sample', 'error-1512'));
  let renewed;
  for (let i = 0; i < 100 && !renewed; i += 1) {
    renewed = page.frames().find((f) => f.url().includes('sample=error-1512'));
    if (!renewed) await page.waitForTimeout(100);
  }
  assert.ok(renewed, 'a new frame for the new sample');
  await renewed.locator('#verdict').waitFor({ timeout: 60000 });
  assert.match(await renewed.locator('#verdict').innerText(), /failed in vnc_link/);

  // Removal leaves no frame of that instance, and the other goes on.
  const before = page.frames().length;
  await page.evaluate(() => document.getElementById('two').remove());
  for (let i = 0; i < 50 && page.frames().length !== before - 1; i += 1) await page.waitForTimeout(100);
  assert.equal(page.frames().length, before - 1);
  assert.equal(await page.evaluate(() => document.querySelectorAll('birlink-view').length), 1);
  await page.evaluate(() => document.getElementById('one').setAttribute('view', 'pipeline'));
  await renewed.locator('#pipeline-view').waitFor({ timeout: 30000 });
  // Put back, an instance starts afresh.
  await page.evaluate(() => {
    const again = document.createElement('birlink-view');
    again.id = 'three';
    again.setAttribute('sample', 'matmul-2core');
    document.body.append(again);
  });
  await page.waitForFunction(() => window.events.some((e) => e.type === 'birlink-ready' && e.id === 'three'), null, { timeout: 30000 });
  assert.deepEqual(errors, []);
});

test('one instance showing a sample says its verdict', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${host.origin}/docs/one.html`);
  await page.waitForFunction(() => window.events.length > 0, null, { timeout: 60000 });
  await page.waitForTimeout(500);
  const linked = await events(page, 'birlink-linked', 'only');
  assert.equal(linked.length, 1, 'one run, one event');
  assert.deepEqual([linked[0].detail.ok, linked[0].detail.errors, linked[0].detail.id], [true, 0, null]);
  assert.deepEqual(errors, []);
});
