// Embed mode (embed spec §3): no chrome and no drop target, keys only while the frame
// has focus, details that fold, "Open in birlink ↗" carrying the live state, the
// content's height reported, and the page never touching its own URL or history — so
// a host that reloads gets the embed it wrote (Compiler Explorer #8896, #8097).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, verdict } from './harness.mjs';

let birlink;
let host;
let browser;
before(async () => {
  birlink = await serve();
  const pages = { '/favicon.ico': { body: '', type: 'image/x-icon' } };
  host = await serve(undefined, { prefix: '/nothing/', pages });
  pages['/host.html'] = `<!doctype html><meta charset="utf-8"><title>host</title>
<p><button id="host-button">a host control</button></p>
<iframe id="frame" src="${birlink.url}?embed=1&sample=error-1514&origin=${encodeURIComponent(host.origin)}#view=barriers" style="width:1000px;height:700px"></iframe>
<script>
  window.heights = [];
  addEventListener('message', (e) => { if (e.data && e.data.birlink === 'resize') heights.push(e.data.height); });
</script>`;
  browser = await launch();
});
after(async () => { await browser?.close(); await host?.close(); await birlink?.close(); });

test('embedded: the views and details only, no drop target, and its own URL untouched', async () => {
  const page = await open(browser, `${birlink.url}?embed=1&sample=error-1514`);
  await verdict(page);
  const entries = await page.evaluate(() => history.length);
  assert.equal(await page.locator('.topbar').count(), 0, 'no header');
  assert.equal(await page.locator('#load-panel').count(), 0, 'no load panel');
  // Pipeline, Call graph, Barriers, Semaphores, Addresses, Diagnostics and Sync (which
  // says why it was skipped: the link failed); no sgLnk, no Compare.
  assert.equal(await page.locator('[role=tab]').count(), 7);
  // Details fold, and open on a selection.
  assert.equal(await page.locator('#details-toggle').getAttribute('aria-expanded'), 'false');
  await page.locator('#details-toggle').click();
  await page.locator('#details-body').waitFor();
  await page.locator('#details-toggle').click();
  await page.keyboard.press('2');
  await page.locator('.node.core-fn').first().click();
  await page.locator('#details .key code').waitFor();
  // "Open in birlink" follows the state; the page's own URL and history do not move.
  const href = await page.locator('#open-full').getAttribute('href');
  assert.ok(href.startsWith(`${birlink.url}?sample=error-1514#`), href);
  assert.match(href, /view=callgraph/);
  assert.match(href, /select=function:0:nc00/);
  assert.doesNotMatch(href, /embed=1/);
  assert.equal(await page.evaluate(() => location.hash), '');
  assert.equal(await page.evaluate(() => history.length), entries, 'no history entry added');
  // A file dropped on the page opens nothing and navigates nowhere: the verdict is the
  // one it was, to the letter (a `{}` opened would also fail, differently).
  const before = await page.locator('#verdict').innerText();
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['{}'], 'x.json', { type: 'application/json' }));
    document.querySelector('.app').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.waitForTimeout(300);
  assert.equal(page.url(), `${birlink.url}?embed=1&sample=error-1514`);
  assert.equal(await page.locator('#verdict').innerText(), before);
  assert.equal(await page.locator('#load-panel').count(), 0, 'no load panel to have taken the file');
  assert.deepEqual(page.errors, []);
});

test('in a host page: keys only with focus, the height reported, and a reload keeps the embed', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${host.origin}/host.html`);
  const frame = page.frameLocator('#frame');
  await frame.locator('#verdict').waitFor({ timeout: 60000 });
  await frame.locator('#barriers-view').waitFor();
  // Keys typed in the host are the host's.
  await page.focus('#host-button');
  await page.keyboard.press('4');
  await page.waitForTimeout(200);
  assert.equal(await frame.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-barriers');
  // Inside the frame they are birlink's.
  await frame.locator('#tab-barriers').click();
  await page.keyboard.press('4');
  await frame.locator('#tab-semaphores[aria-selected=true]').waitFor();
  // The content's height, for the host to size the frame.
  await page.waitForFunction(() => window.heights.length > 0);
  const heights = await page.evaluate(() => window.heights);
  assert.ok(heights.every((h) => h > 100 && h < 5000), `${heights}`);
  // The host reloads: the frame shows what the host wrote, not where the user went.
  const inner = page.frames().find((f) => f.url().includes('embed=1'));
  assert.match(inner.url(), /#view=barriers$/, 'the frame\'s URL was never rewritten');
  await page.reload();
  await page.frameLocator('#frame').locator('#barriers-view').waitFor({ timeout: 60000 });
  assert.deepEqual(errors, []);
});
