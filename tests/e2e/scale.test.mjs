// Diagnostics at scale (issue 11): a one-line file with thousands of findings of one
// code shows ten and counts the rest, a hundred more on request; the selected one is
// always drawn; the page stays usable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, verdict, nextVerdict, scratch } from './harness.mjs';

let server;
let browser;
let file;
before(async () => {
  server = await serve();
  browser = await launch();
  const dir = scratch('scale');
  file = path.join(dir, 'nc00.json');
  // One line, 3,000 functions whose `name` is a number: 3,000 BL0003 errors.
  fs.writeFileSync(file, JSON.stringify({ functions: Array.from({ length: 3000 }, () => ({ name: 5 })) }));
});
after(async () => { await browser?.close(); await server?.close(); });

test('3,000 findings of one code: ten cards and a count, a hundred more on request', async () => {
  const page = await open(browser, server.url);
  const first = await verdict(page);
  await page.setInputFiles('#file-input', [file]);
  const text = await nextVerdict(page, first);
  assert.match(text, /3000 errors/);
  await page.keyboard.press('6');
  const cards = page.locator('#diagnostics-view li.diag');
  await page.locator('#diagnostics-view .diag-more').waitFor();
  assert.equal(await cards.count(), 10);
  assert.match(await page.locator('#diagnostics-view .diag-more').innerText(), /2990 more error\[BL0003\] like these/);
  // Every card has its own line and column, counted on the one long line.
  assert.match(await cards.nth(9).innerText(), /nc00\.json:1:\d+/);
  await page.locator('#diagnostics-view .diag-more button').click();
  await page.waitForFunction(() => document.querySelectorAll('#diagnostics-view li.diag').length === 110);
  assert.match(await page.locator('#diagnostics-view .diag-more').innerText(), /2890 more/);
  // Stepping with j past the drawn ones draws the selected one.
  for (let i = 0; i < 115; i++) await page.keyboard.press('j');
  await page.waitForFunction(() => document.querySelectorAll('#diagnostics-view li.diag').length >= 116);
  assert.equal(await page.locator('#diagnostics-view li.diag.selected').count(), 1);
  assert.deepEqual(page.errors, []);
});
