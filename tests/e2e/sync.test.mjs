// The Sync view (docs/spec/sync.md §9): each sync sample opened in it, the stuck lane
// found where the check says it is (the root first), the replay slider driving the
// worker, a click on an issue opening the instruction, the same `report.sync` as the
// CLI's; screenshots in light and dark for docs/sync.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, verdict, samples, cli, root, dist, distDebug, scratch } from './harness.mjs';

let server;
let browser;

before(async () => {
  // The release build (BIRLINK_DIST=dist-debug: the debug one, a developer's loop).
  const asked = process.env.BIRLINK_DIST && path.resolve(root, process.env.BIRLINK_DIST);
  server = await serve(asked ?? (fs.existsSync(path.join(dist, 'index.html')) ? dist : distDebug));
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

/** The CLI's `report.sync` for a sample. */
function cliSync(sample) {
  const out = scratch('sync');
  execFileSync(cli(), ['link', path.join(samples, sample), '--out', out, '--quiet']);
  return JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).sync;
}

/** Opens a sample in the Sync view and waits for its replay to be drawn. */
async function openSync(sample, options) {
  const page = await open(browser, `${server.url}?sample=${sample}#view=sync`, options);
  await verdict(page, 60000);
  await page.locator('#sync-view').waitFor();
  await page.locator('#sync-lanes').waitFor({ timeout: 60000 });
  return page;
}

const STORIES = [
  // The public NRT status 5 case: core 0's SP waits at the barrier core 1 never reaches.
  { sample: 'sync-barrier-on-one-path.json', headline: /deadlock \(exact\) — core 0 SP waits at Block2-cb-2/, root: ['0', 'SP'], codes: ['BL0701', 'BL0706'] },
  // The root is core 1's SP, waiting on a semaphore nothing updates; core 0's SP is knock-on.
  { sample: 'sync-signal-to-another-semaphore.json', headline: /core 1 SP waits at wait_for_tile_0 for semaphore 178/, root: ['1', 'SP'], codes: ['BL0706', 'BL0706', 'BL0707'] },
  { sample: 'sync-trip-count-differs.json', headline: /core 0 DVE waits at loop_barrier/, root: ['0', 'DVE'], codes: ['BL0704', 'BL0706'] },
  // No hang: the race, and nothing stuck.
  { sample: 'sync-race.json', headline: /completes \(exact\), 1 finding/, root: null, codes: ['BL0708'] },
  // The clean MoE set: exact, nothing found.
  { sample: 'moe-2core.json', headline: /completes \(exact\), 0 findings/, root: null, codes: [] },
];

for (const story of STORIES) {
  test(`the Sync view of ${story.sample}: ${story.root ? 'the stuck lane, root first' : 'no lane stuck'}`, async () => {
    const expected = cliSync(story.sample);
    assert.deepEqual(expected.findings.map((f) => f.code), story.codes);
    const page = await openSync(story.sample);
    assert.match(await page.locator('#sync-headline').innerText(), story.headline);
    // birlink's reading is said on the view.
    assert.match(await page.locator('.sync-verdict .reading').innerText(), /birlink's reading/);
    assert.match(await page.locator('.sync-verdict .exactness').innerText(), /exact/);
    if (story.root) {
      const first = page.locator('.stuck-lanes .stuck-lane').first();
      assert.deepEqual([await first.getAttribute('data-core'), await first.getAttribute('data-engine')], story.root);
      assert.match(await first.locator('.badge').innerText(), /root/);
      // At the execution's end the root lane is marked on the chart.
      assert.equal(await page.locator('#sync-lanes .stuck.root').count(), 1);
    } else {
      assert.equal(await page.locator('.stuck-lanes').count(), 0);
    }
    // Every lane of the CLI's report is a row, grouped by core.
    assert.equal(await page.locator('#sync-lanes .sync-row').count(), expected.lanes.length);
    const rows = await page.locator('.sync-lane-table tbody tr').allInnerTexts();
    assert.equal(rows.length, expected.lanes.length);
    // The tab counts the findings; the diagnostics panel has each one.
    const count = await page.locator('#tab-sync .count').innerText();
    assert.equal(Number(count), story.codes.length);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the slider replays the execution in the worker, a click opens the instruction, the rungs join the lanes', async () => {
  const page = await openSync('sync-barrier-on-one-path.json');
  const slider = page.locator('#sync-step');
  const end = Number(await slider.getAttribute('max'));
  assert.ok(end > 10, `${end} steps`);
  assert.match(await page.locator('#sync-at').innerText(), new RegExp(`step ${end} of ${end}`));
  // Rendezvous passed together are rungs; the barriers are marked.
  assert.ok(await page.locator('#sync-lanes .rung').count() >= 2);
  assert.ok(await page.locator('#sync-lanes .mark.barrier').count() >= 4);
  // Back to step 5: the worker replays, the chart shows what issued before it, nothing stuck yet.
  await slider.fill('5');
  await page.waitForFunction(() => document.querySelector('#sync-at')?.textContent.startsWith('step 5 of'));
  await page.waitForFunction(() => document.querySelectorAll('#sync-lanes .mark').length === 5);
  assert.equal(await page.locator('#sync-lanes .stuck').count(), 0);
  // Arrow keys on the slider step it.
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#sync-at')?.textContent.startsWith('step 6 of'));
  await page.waitForFunction(() => document.querySelectorAll('#sync-lanes .mark').length === 6);
  // A click on an issue opens its instruction in the details panel.
  const mark = page.locator('#sync-lanes .mark').first();
  const title = await mark.locator('title').textContent();
  const name = title.replace(/^step \d+, round \d+: /, '').replace(/ \(.*\)$/, '');
  await mark.click();
  await page.waitForFunction((n) => document.querySelector('#details')?.innerText.includes(n), name);
  // `k` (outside the slider) steps back.
  await page.locator('#sync-headline').click();
  await page.keyboard.press('k');
  await page.waitForFunction(() => document.querySelector('#sync-at')?.textContent.startsWith('step 5 of'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a link says view=sync, and a set linked in the seeds\' reading says why the check did not run', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json#view=sync`);
  await verdict(page, 60000);
  await page.locator('.sync-skipped').waitFor();
  assert.match(await page.locator('.sync-skipped').innerText(), /did not run: the seeds' reading/);
  assert.equal(await page.locator('#tab-sync .count').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('screenshots of the Sync view, light and dark (docs/sync.md)', async () => {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}?sample=sync-signal-to-another-semaphore.json#view=sync`);
    await page.locator('#sync-lanes').waitFor({ timeout: 60000 });
    await page.screenshot({ path: path.join(root, `docs/img/sync-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
