// Links into the page (embed spec §1–§2): every view and every kind of entity opened
// from a link in a fresh context, Back and Forward walking views and selections, a
// stale link degrading part by part, the same dist/ under a deep sub-path with no 404
// and nothing root-absolute, the page opened from file://, and the themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, verdict, dist } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const selectedTab = (page) => page.locator('[role=tab][aria-selected=true]').getAttribute('id');
const detailsKey = (page) => page.locator('#details .key code').innerText();
const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));

test('every view opens from a link', async () => {
  for (const [view, id] of [['pipeline', 'tab-pipeline'], ['callgraph', 'tab-call-graph'], ['barriers', 'tab-barriers'],
    ['semaphores', 'tab-semaphores'], ['addresses', 'tab-addresses'], ['diagnostics', 'tab-diagnostics']]) {
    const page = await open(browser, `${server.url}#view=${view}`);
    await verdict(page);
    await page.waitForFunction((want) => document.querySelector('[role=tab][aria-selected=true]')?.id === want, id);
    assert.equal(await selectedTab(page), id, view);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

// One entity of every kind in the matmul sample (the seeds' reading), addressed by its key.
const keys = [
  'function:1:nc01',
  'block:0:nc00/Block2',
  'set:1:nc01/c_partial_0_set',
  'memloc:0:nc00/c_partial_1',
  'queue:-:@qSyncIO',
  'instance:1:@qSyncIO/qSyncIO_1_defId_1',
  'instruction:0:@qSyncIO/qSyncIO_main_defId_0/io_dma_0',
  'instruction:1:nc01/Block2/cb_return_call_def_1_instance_0',
];

test('an entity of every kind opens from a link, in a fresh context', async () => {
  for (const key of keys) {
    const page = await open(browser, `${server.url}?sample=matmul-2core.json#view=barriers&select=${encodeURIComponent(key)}`);
    await verdict(page);
    await page.locator('#details .key code').waitFor();
    assert.equal(await detailsKey(page), key);
    assert.equal(await selectedTab(page), 'tab-barriers');
    assert.deepEqual(page.errors, [], key);
    await page.context().close();
  }
});

test('a selection made by clicking is a link that selects it again', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('4');
  await page.locator('#relocations button.entity').nth(1).click();
  await page.locator('#details .key code').waitFor();
  const key = await detailsKey(page);
  await page.waitForFunction((k) => decodeURIComponent(location.hash).includes(`select=${k}`), key);
  const link = page.url();
  const again = await open(browser, link);
  await verdict(again);
  await again.locator('#details .key code').waitFor();
  assert.equal(await detailsKey(again), key);
  assert.equal(await selectedTab(again), 'tab-semaphores');
});

test('Back and Forward walk views and selections', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.waitForFunction(() => location.hash.includes('view=pipeline'));
  await page.keyboard.press('3');
  await page.waitForFunction(() => location.hash.includes('view=barriers'));
  await page.locator('#barriers-view button.entity').first().click();
  await page.waitForFunction(() => location.hash.includes('select='));
  const selected = await hash(page);
  await page.keyboard.press('5');
  await page.waitForFunction(() => location.hash.includes('view=addresses'));
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]')?.id === 'tab-barriers');
  assert.equal(await hash(page), selected);
  await page.goBack();
  // What the page shows, not the URL (which changes before the page has drawn it).
  await page.waitForFunction(() => document.querySelector('#details .key') === null);
  assert.equal(await selectedTab(page), 'tab-barriers');
  assert.ok(!(await hash(page)).includes('select='), 'the selection went with Back');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]')?.id === 'tab-pipeline');
  await page.goForward();
  await page.goForward();
  await page.locator('#details .key code').waitFor();
  await page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]')?.id === 'tab-barriers');
  assert.ok((await hash(page)).includes('select='));
  assert.deepEqual(page.errors, []);
});

test('a stale or mistyped link degrades part by part, with a notice', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json#view=barriers&select=memloc:0:nc00/gone&step=bir_linker/nope&zoom=2&diag=x`);
  await verdict(page);
  await page.locator('.notice').first().waitFor();
  const notices = (await page.locator('.notice').allInnerTexts()).join(' ');
  assert.match(notices, /zoom=2/);
  assert.match(notices, /diag=x/);
  await page.waitForFunction(() => /not in this link set|no such step/.test([...document.querySelectorAll('.notice')].map((n) => n.innerText).join(' ')));
  assert.equal(await selectedTab(page), 'tab-barriers', 'the view still applies');
  assert.deepEqual(page.errors, []);
});

test('the same dist/ works under a deep sub-path: no 404, nothing root-absolute', async () => {
  const sub = await serve(dist, { prefix: '/docs/tools/birlink/' });
  try {
    const page = await open(browser, `${sub.url}?sample=ring-4core#view=callgraph`);
    assert.match(await verdict(page), /linked/);
    await page.locator('#call-graph-svg').waitFor();
    await page.locator('#samples option').nth(3).waitFor({ state: 'attached' });
    const bad = sub.requests.filter((r) => r.status !== 200 || !r.path.startsWith('/docs/tools/birlink/'));
    assert.deepEqual(bad, [], 'every request is inside the sub-path and found');
    assert.ok(sub.requests.length >= 8, `${sub.requests.length} requests`);
    assert.deepEqual(page.errors, []);
  } finally {
    await sub.close();
  }
  // Nothing in the built files points at the site's root.
  for (const file of fs.readdirSync(dist).filter((f) => /\.(html|js|css)$/.test(f))) {
    const text = fs.readFileSync(path.join(dist, file), 'utf8');
    assert.doesNotMatch(text, /(src|href)="\/[^/]/, `${file} has a root-absolute URL`);
    assert.doesNotMatch(text, /(import|fetch|url)\(\s*['"]\/[^/]/, `${file} loads a root-absolute URL`);
    assert.doesNotMatch(text, /from\s+['"]\/[^/]/, `${file} imports a root-absolute URL`);
  }
});

test('opened from file:// the page says how to serve it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`file://${path.join(dist, 'index.html')}`);
  const note = page.locator('#boot-note');
  await page.waitForFunction(() => getComputedStyle(document.getElementById('boot-note')).opacity === '1', null, { timeout: 3000 });
  assert.match(await note.innerText(), /served over HTTP/);
  assert.match(await note.innerText(), /python3 -m http\.server/);
  await context.close();
});

test('over HTTP the file:// note never shows', async () => {
  const page = await open(browser, server.url);
  await verdict(page);
  assert.equal(await page.locator('#boot-note').count(), 0);
});

async function background(url, scheme) {
  const context = await browser.newContext({ colorScheme: scheme });
  const page = await context.newPage();
  await page.goto(url);
  await verdict(page);
  const color = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await context.close();
  return color;
}

test('theme= sets the colours, and auto follows prefers-color-scheme', async () => {
  const light = 'rgb(255, 255, 255)';
  const dark = 'rgb(13, 17, 23)';
  assert.equal(await background(server.url, 'light'), light);
  assert.equal(await background(server.url, 'dark'), dark);
  assert.equal(await background(`${server.url}?theme=dark`, 'light'), dark);
  assert.equal(await background(`${server.url}?theme=light`, 'dark'), light);
  assert.equal(await background(`${server.url}?theme=auto`, 'dark'), dark);
});
