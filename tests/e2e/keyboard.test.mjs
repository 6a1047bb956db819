// The inspector with the keyboard alone: the help dialog takes focus, keeps it and
// gives it back; search is an ARIA combobox; call-graph nodes are reached with Tab and
// opened with Enter; `aria-selected` only where a grid uses it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, launch, open, verdict } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const active = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { id: a?.id ?? '', classes: a?.getAttribute('class') ?? '', label: a?.getAttribute('aria-label') ?? '', inHelp: !!a?.closest('#help') };
});

/** Tabs forward until `found(active)` holds; fails after `limit` presses. */
async function tabTo(page, found, limit = 80) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if (found(await active(page))) return;
  }
  assert.fail('Tab never reached the element');
}

test('the help dialog takes focus, keeps it, and gives it back', async () => {
  const page = await open(browser, server.url);
  await verdict(page);
  await tabTo(page, (a) => a.id === 'help-button');
  await page.keyboard.press('Enter');
  await page.locator('#help[role=dialog]').waitFor();
  assert.equal((await active(page)).inHelp, true, 'focus moved into the dialog');
  const version = JSON.parse(fs.readFileSync(new URL('../../npm/package.json', import.meta.url), 'utf8')).version;
  assert.match(await page.locator('#help-version').innerText(), new RegExp(`^birlink ${version.replaceAll('.', '\\.')}( \\([0-9a-f]+\\))?$`));
  for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    assert.equal((await active(page)).inHelp, true, `focus stays in the dialog after ${key}`);
  }
  await page.keyboard.press('Escape');
  await page.locator('#help').waitFor({ state: 'detached' });
  assert.equal((await active(page)).id, 'help-button', 'focus is back on the button that opened it');
  assert.deepEqual(page.errors, []);
});

test('search is a combobox driven by the keyboard', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('/');
  assert.equal((await active(page)).id, 'search');
  const input = page.locator('#search');
  assert.equal(await input.getAttribute('role'), 'combobox');
  assert.equal(await input.getAttribute('aria-expanded'), 'false');
  await page.keyboard.type('c_partial_1');
  // The list offers only answers to the whole text typed (an answer to `c_partial_`,
  // which lists `c_partial_0` too, is never offered): the first options listed are
  // the ones to choose from.
  await page.locator('#search-results [role=option]').first().waitFor();
  const offered = await page.locator('#search-results [role=option] .name').allInnerTexts();
  assert.ok(offered.every((name) => name.includes('c_partial_1')), `${offered}`);
  assert.equal(await input.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('ArrowDown');
  const activeId = await input.getAttribute('aria-activedescendant');
  assert.equal(activeId, 'search-hit-1');
  const option = page.locator(`#${activeId}`);
  assert.equal(await option.getAttribute('role'), 'option');
  assert.equal(await option.getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await page.locator('#details-linked').waitFor();
  assert.match(await page.locator('#details-linked').innerText(), /"name": "c_partial_1"/);
  assert.deepEqual(page.errors, []);
});

test('call-graph nodes are reached with Tab and opened with Enter or Space', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('2');
  await page.locator('#call-graph-svg').waitFor();
  await tabTo(page, (a) => a.classes.includes('core-fn'));
  assert.match((await active(page)).label, /^function nc00: core 0's function/);
  await page.keyboard.press('Enter');
  await page.locator('#details .details-title .name').filter({ hasText: 'nc00' }).waitFor();
  await tabTo(page, (a) => a.classes.includes('memloc'));
  const memloc = (await active(page)).label;
  await page.keyboard.press(' ');
  await page.locator('#details-linked').filter({ hasText: memloc.split(' ')[2] }).waitFor();
  assert.equal(await page.locator('.node.memloc.selected').count(), 1, 'the node shows it is selected');
  assert.deepEqual(page.errors, []);
});

test('aria-selected marks grid rows and options, not plain table rows', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('4');
  await page.locator('#relocations').waitFor();
  await page.locator('#relocations button.entity').first().click();
  assert.equal(await page.locator('#relocations tr[aria-selected]').count(), 0);
  assert.equal(await page.locator('table [aria-selected]').count(), 0, 'no plain table carries aria-selected');
});
