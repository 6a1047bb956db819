// The debug build, where yew checks that every component calls the same hooks in the
// same order on every render (a component that returns early before some of its hooks
// panics there, and only misbehaves silently in release). A link set large enough that
// some tables are virtualized (> 150 rows) and others are not; every step of the
// pipeline walked with j (all of them, unchanged ones included) and every view opened,
// with no console error at any point. A work directory with its compiler log: the
// timeline, its passes chosen, the log held beside the run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, distDebug, cli, scratch } from './harness.mjs';

let server;
let browser;
let files;
before(async () => {
  assert.ok(fs.existsSync(path.join(distDebug, 'index.html')), 'build the debug page first: trunk build --dist dist-debug');
  server = await serve(distDebug);
  browser = await launch();
  // 180 barriers and 160 remote DMA blocks per core: the barrier tables, the barrier
  // step's edits and the relocations are virtualized; the dispatcher's edits, the
  // address map and the lockstep table are not.
  const out = scratch('debug-walk');
  execFileSync(cli(), ['gen', '--cores', '2', '--insts', '300', '--barriers', '180', '--remote-dma', '160', '--out', out], { stdio: 'ignore' });
  files = fs.readdirSync(out).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(out, f));
});
after(async () => { await browser?.close(); await server?.close(); });

async function heading(page) {
  return page.locator('#pipeline-view h2').innerText();
}

/** Presses j once per visible step after the current one (the sidebar lists them),
 *  each time waiting for the view to show the next; returns the steps seen, in order. */
async function walkSteps(page) {
  const steps = await page.locator('#pass-list button.step').count();
  const at = await page.locator('#pass-list button.step').evaluateAll(
    (buttons) => buttons.findIndex((b) => b.getAttribute('aria-current') === 'step'));
  const seen = [await heading(page)];
  for (let i = Math.max(at, 0) + 1; i < steps; i++) {
    await page.keyboard.press('j');
    await page.waitForFunction((before) => document.querySelector('#pipeline-view h2')?.innerText !== before,
      seen[seen.length - 1], { timeout: 60000 });
    seen.push(await heading(page));
  }
  return seen;
}

test('every step and view of a large link set renders in a debug build without a console error', async () => {
  // The seeds' reading (asked for): the nine steps of its one bir_linker.
  const page = await open(browser, `${server.url}?sample=matmul-2core.json&flow=seeds`);
  const first = await verdict(page, 120000);
  await page.setInputFiles('#file-input', files);
  const text = await nextVerdict(page, first, 120000);
  assert.match(text, /linked nc00\/sgLnk/);

  await page.keyboard.press('1');
  await page.locator('#pipeline-view').waitFor();
  // From the first step to the last, through steps with few edits and with many.
  await page.keyboard.press('k');
  const changed = await walkSteps(page);
  assert.deepEqual(page.errors, [], 'stepping from few edits to many (a table becomes virtualized)');
  assert.ok(changed.some((h) => h.endsWith('renumber_barriers')), `walked ${changed}`);
  assert.ok(changed.some((h) => h.endsWith('dispatcher')), `walked ${changed}`);
  assert.equal(await page.locator('#step-edits [role=grid]').count(), 1, 'the last steps (relocations) are virtualized');
  // Unchanged steps too, and back to the start with k.
  await page.locator('#pass-list input[type=checkbox]').click();
  // Keys typed into a field are the field's: leave the checkbox first.
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < changed.length + 20; i += 1) await page.keyboard.press('k');
  const all = await walkSteps(page);
  assert.ok(all.length > changed.length, `${all.length} steps with unchanged ones, ${changed.length} without`);

  // Every view; the barriers view holds virtualized tables, the addresses a plain one.
  for (const [key, id] of [['2', '#call-graph'], ['3', '#barriers-view'], ['4', '#semaphores-view'], ['5', '#addresses-view'], ['6', '#diagnostics-view'], ['1', '#pipeline-view']]) {
    await page.keyboard.press(key);
    await page.locator(id).waitFor();
  }
  await page.keyboard.press('3');
  // Each core's table is drawn in a task of its own.
  await page.locator('#barriers-view [role=grid]').nth(1).waitFor();
  assert.ok(await page.locator('#barriers-view [role=grid]').count() >= 2, 'each core\'s barriers are virtualized');
  await page.keyboard.press('5');
  assert.equal(await page.locator('#address-map table').count(), 1, 'the address map is a plain table');
  // Selecting rows of both kinds of table, and the details they open.
  await page.keyboard.press('3');
  await page.locator('#barriers-view .grid-row button.entity').first().click();
  await page.locator('#details-linked').waitFor();
  await page.keyboard.press('4');
  await page.locator('#relocations button.entity').first().click();
  await page.locator('#details-linked').waitFor();
  assert.deepEqual(page.errors, []);
});

test('the modular flow in a debug build: the grid, each core\'s bir_linker, the per-core call graph and its details', async () => {
  const page = await open(browser, `${server.url}?sample=moe-2core`);
  const text = await verdict(page, 120000);
  assert.match(text, /linked nc00\/sgLnk, nc01\/sgLnk/);
  // The grid first: the flow and why, cores × subgraphs.
  const grid = page.locator('#flow-grid');
  await grid.waitFor();
  assert.equal(await grid.getAttribute('data-flow'), 'modular');
  assert.match(await grid.innerText(), /modular flow — a netlist with partitions/);
  assert.equal(await page.locator('#grid-table tbody tr').count(), 2);
  assert.deepEqual(await page.locator('#grid-table thead th').allInnerTexts(), ['core', 'sg00', 'sg01', 'sg02']);
  // The pipeline: bir_linker once per core, then the VNC passes.
  const passes = await page.locator('#pass-list .pass-name').allInnerTexts();
  assert.deepEqual(passes, ['verify', 'bir_linker (nc00)', 'bir_linker (nc01)', 'vnc_remote_addr_map', 'vnc_link']);
  await page.keyboard.press('1');
  await page.locator('#pipeline-view').waitFor();
  await page.keyboard.press('k');
  const steps = await walkSteps(page);
  assert.ok(steps.filter((h) => h.includes('dispatcher')).length === 2, `walked ${steps}`);
  assert.deepEqual(page.errors, []);
  // The call graph: each core's main and its 48 calls, the handoffs above them.
  await page.keyboard.press('2');
  await page.locator('#call-graph-svg').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('#call-graph-svg .node.call-node').length === 96);
  await page.waitForFunction(() => document.querySelectorAll('#call-graph-svg .handoff path').length > 0);
  const lanes = await page.locator('#call-graph-svg .lane-group').count();
  assert.equal(lanes, 2);
  await page.screenshot({ path: path.join(path.dirname(new URL(import.meta.url).pathname), '../../target/modular-call-graph.png'), fullPage: true });
  // A call of core 1 opens its details, found in core 1's module.
  await page.locator('#call-graph-svg .node.call-node[data-core="1"][data-call="call_def_1_instance_3"]').click();
  await page.locator('#details-linked').waitFor();
  assert.match(await page.locator('#details').innerText(), /call_def_1_instance_3/);
  assert.match(await page.locator('#details').innerText(), /sg0001/);
  // What the call binds: each formal set of sg0001 and main's set bound to it, with the partition.
  await page.locator('#call-bindings').waitFor();
  assert.match(await page.locator('#call-bindings summary').innerText(), /Bindings of call_def_1_instance_3 \(\d+ arguments\) partition 4 · definition 1 · instance 3/);
  assert.ok(await page.locator('#call-bindings tbody tr').count() > 0);
  assert.match(await page.locator('#call-bindings tbody').innerText(), /\breads\b/);
  assert.equal(await page.locator('#call-bindings td[title="an intermediate this partition writes"]').count() > 0, true);
  // Every other view.
  for (const [key, id] of [['3', '#barriers-view'], ['4', '#semaphores-view'], ['5', '#addresses-view'], ['6', '#diagnostics-view']]) {
    await page.keyboard.press(key);
    await page.locator(id).waitFor();
  }
  // The seeds' reading is one choice away, and says so.
  await page.selectOption('#flow-select', 'seeds');
  await page.waitForFunction(() => document.querySelector('#flow-grid')?.dataset.flow === 'seeds', null, { timeout: 60000 });
  assert.match(await page.locator('#flow-grid').innerText(), /the seeds' reading/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('debug build: the Compare view, its controls, B\'s entities and a swap keep every hook in order', async () => {
  const page = await open(browser, `${server.url}?sample=sendrecv-called-once&against=sendrecv-called-twice#view=compare`);
  await verdict(page);
  await page.locator('#compare-verdict').waitFor({ timeout: 30000 });
  await page.locator('#compare-numbers').check();
  await page.locator('#compare-masked').waitFor();
  await page.locator('#compare-core-map select[data-core="0"]').selectOption('1');
  await page.waitForFunction(() => location.hash.includes('core-map=0:1'));
  await page.locator('#compare-first-divergence button.side-b').first().click();
  await page.locator('#details-side').waitFor();
  await page.locator('#against-swap').click();
  await page.waitForFunction(() => /only A reports/.test(document.querySelector('#compare-verdict')?.textContent ?? ''), null, { timeout: 30000 });
  // Every other view of the swapped set (7 is Sync, 8 sgLnk: none here), back to
  // Compare (9), then closing B.
  for (const key of ['1', '2', '3', '4', '5', '6', '7', '8', '9']) await page.keyboard.press(key);
  await page.locator('#against-close').click();
  await page.locator('.compare-empty').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('debug build: a work directory with its compiler log — the timeline, a pass chosen by click and by key, the log beside the run — keeps every hook in order', async () => {
  const page = await open(browser, `${server.url}?sample=workdir-illc059`, { viewport: { width: 1400, height: 1000 } });
  assert.match(await verdict(page, 120000), /linked nc00, nc01/);
  const timeline = page.locator('#log-timeline');
  await timeline.waitFor();
  // A pass whose dumps are loaded, one with none, the failing one; then to its diagnostic.
  await timeline.locator('rect[data-pass="coloring_allocator_dram"][data-scope="nc01/sg00"]').click();
  await page.locator('#timeline-dumps li').first().waitFor();
  await timeline.locator('rect[data-pass="oom_checker"][data-scope="nc00"]').press('Enter');
  await page.locator('#timeline-no-dumps').waitFor();
  await timeline.locator('rect.tl-failed').click();
  await page.locator('#beside-failure').waitFor();
  await page.click('#timeline-jump');
  await page.waitForFunction(() => document.querySelector('#tab-diagnostics')?.getAttribute('aria-selected') === 'true');
  assert.deepEqual(page.errors, []);
  // The Passes view: one pass dumped, the cores already apart in it; the error's name
  // followed from the log (core 1 never has it), a cell's diff, Cancel-free to the end.
  await page.click('#tab-passes');
  await page.locator('#passes-table').waitFor({ timeout: 60000 });
  assert.match(await page.locator('#passes-baseline').innerText(), /only on core 0/);
  await page.locator('.finding .follow-passes').first().click();
  await page.locator('#passes-entity-history').waitFor({ timeout: 60000 });
  assert.deepEqual(await page.locator('#passes-entity-history .last-seen li').allInnerTexts(),
    ['core 0: last seen after `coloring_allocator_dram`', 'core 1: never seen']);
  await page.locator('#passes-table td[data-module="nc01/sg00"] button').click();
  await page.locator('#pass-diff .unit-diff').first().waitFor({ timeout: 60000 });
  await page.locator('#show-unchanged-units').check();
  assert.deepEqual(page.errors, []);
  // A modular work directory: each core's BirLinker block held against birlink's log.
  await page.goto(`${server.url}?sample=workdir-moe`);
  assert.match(await verdict(page, 120000), /linked nc00\/sgLnk, nc01\/sgLnk/);
  await page.locator('#log-beside').waitFor();
  assert.match(await page.locator('#log-beside').innerText(), /agree \(60 lines\)/);
  await page.locator('#log-timeline rect[data-pass="bir_linker"][data-scope="nc01"]').click();
  await page.locator('#timeline-pass').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
