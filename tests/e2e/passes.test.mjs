// The Passes view (issue 42): a work directory printed after every pass, core 1 losing
// a memory location at `unroll` (NCC_ILLC059's shape), core 0's dumps indented and core
// 1's compact. The page reads the dumps in its worker pass by pass, marks the first
// parting, follows the name a pasted NCC_ILLC059 line quotes to the pass that lost it,
// opens that pass's diff of the module, writes the same history.json as `birlink
// history --format json`, and stops on Cancel. Screenshots in light and dark for
// docs/history.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, cli, download, root } from './harness.mjs';

let server;
let browser;
let scratch;
let work;
let lost;
const error = () => `[NCC_ILLC059] Could not find MemoryLocation named ${lost} on core 1`;

/** The first memory location of a module's first function. */
function firstMemloc(module) {
  for (const set of module.functions[0].allocations) {
    const name = set.memorylocations?.[0]?.name;
    if (name) return name;
  }
  throw new Error('no memory location');
}

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-passes-'));
  work = path.join(scratch, 'work');
  execFileSync(cli(), ['gen', '--cores', '2', '--flow', 'flat', '--print-after', '4', '--out', work], { stdio: 'ignore' });
  for (const core of ['nc00', 'nc01']) {
    const dir = path.join(work, core, 'sg00');
    for (const file of fs.readdirSync(dir)) {
      const module = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      lost ??= firstMemloc(module);
      // Core 1 loses the memory location at `unroll` (the third pass) and after.
      const n = Number(file.split('.')[1]);
      if (core === 'nc01' && n >= 3) {
        for (const set of module.functions[0].allocations) {
          if (set.memorylocations) set.memorylocations = set.memorylocations.filter((m) => m.name !== lost);
        }
      }
      fs.writeFileSync(path.join(dir, file), core === 'nc00' ? JSON.stringify(module, null, 2) : JSON.stringify(module));
    }
  }
  // The compile's log, as 2.23 prints a flat LNC2 compile that fails in
  // lower_local_collectives: the passes run once per subgraph, then per module.
  const t = '2026-12-07T02:00:0';
  const lines = [
    `${t}1Z INFO 5101 [root]: NeuronX Compiler version 2.23.6484.0+3b612583 Python version 3.10.12`,
    `${t}2Z INFO 5111 [job.WalrusDriver.0]: BackendDriver: no partitions within VNC found. Switching to VNC + flat flow.`,
    `${t}3Z USER 5131 [BackendPassManager]: Running mod_parallel_pass`,
  ];
  for (const pass of ['lnc_verifier', 'expand_replication', 'unroll', 'localize_shared_memory']) {
    lines.push(`${t}4Z USER 5131 (sg00) [SubgraphForkPass]: Running ${pass}`);
    lines.push(`${t}4Z USER 5131 (sg00) [SubgraphForkPass]: ${pass} finished after 0.001 seconds`);
  }
  lines.push(`${t}5Z USER 5131 (sg00) [SubgraphForkPass]: Running lower_local_collectives`);
  lines.push(`${t}5Z USER 5131 (sg00) [SubgraphForkPass]: lower_local_collectives failed after 0.000 seconds`);
  lines.push(`${t}5Z ERROR 5131 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] ${error()} - Please open a support ticket at https://github.com/aws-neuron/aws-neuron-sdk/issues/new`);
  fs.writeFileSync(path.join(work, 'log-neuron-cc.txt'), `${lines.join('\n')}\n`);
  server = await serve();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(scratch, { recursive: true, force: true }); });

test('the Passes view marks where the cores part and follows a pasted NCC_ILLC059 name to the pass that lost it', async () => {
  const page = await open(browser, server.url);
  await page.setInputFiles('#folder-input', work);
  await verdict(page, 60000);
  await page.locator('#tab-passes').click();
  await page.locator('#passes-table').waitFor({ timeout: 60000 });
  // The passes in the order they ran, the modules across.
  const passes = await page.locator('#passes-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.pass));
  assert.deepEqual(passes, ['lnc_verifier', 'expand_replication', 'unroll', 'localize_shared_memory']);
  const heads = await page.locator('#passes-table thead th').allInnerTexts();
  assert.deepEqual(heads, ['pass', 'nc00/sg00', 'nc01/sg00']);
  const cell = (pass, module) => page.locator(`#passes-table tr[data-pass="${pass}"] td[data-module="${module}"]`);
  assert.equal(await cell('lnc_verifier', 'nc00/sg00').innerText(), 'first');
  assert.equal(await cell('expand_replication', 'nc01/sg00').innerText(), '=');
  assert.match(await cell('unroll', 'nc01/sg00').innerText(), /−1 memloc/);
  assert.equal(await cell('unroll', 'nc00/sg00').innerText(), '=');
  // The first parting, marked on its row and said with the name core 1 lost.
  assert.equal(await page.locator('#passes-table tr.first-parting').getAttribute('data-pass'), 'unroll');
  const parted = await page.locator('#passes-parted .parting.first').innerText();
  assert.match(parted, /sg00: the cores first part after\s+unroll/);
  assert.ok(parted.includes(`memloc \`${lost}\` only on core 0`), parted);
  assert.equal(await page.locator('#tab-passes .count').innerText(), '1');

  // The directory's log orders the passes; the timeline's pass opens its row here.
  assert.match(await page.locator('.passes-view .view-head').innerText(), /in the order the log says they ran/);
  await page.locator('#log-timeline rect[data-pass="unroll"]').first().click();
  await page.click('#timeline-passes');
  await page.waitForFunction(() => /^`unroll` on nc01\/sg00/.test(document.querySelector('#pass-diff h3')?.textContent ?? ''));
  assert.equal(await page.locator('#passes-table td.selected').getAttribute('data-module'), 'nc01/sg00');

  // The compiler's error pasted: the name it quotes, followed through every pass.
  await page.click('#paste-error');
  await page.locator('#log-text').fill(`2026-12-07T02:00:05Z ERROR 5131 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] ${error()}`);
  await page.click('#log-read');
  await page.locator('.finding .follow-passes').first().click();
  await page.locator('#passes-entity-history').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#passes-entity').inputValue(), lost);
  assert.equal(await page.locator('#passes-entity-history h3').innerText(), `\`${lost}\` through every pass`);
  const seen = await page.locator('#passes-entity-history .last-seen li').allInnerTexts();
  assert.deepEqual(seen, ['core 0: last seen after `localize_shared_memory`', 'core 1: last seen after `expand_replication`']);
  const strip = (lane) => page.locator(`#passes-entity-history tr[data-lane="${lane}"] td`)
    .evaluateAll((cells) => cells.map((c) => c.className.replace('es ', '')));
  assert.deepEqual(await strip('core 1 · sg00'), ['first', 'unchanged', 'removed', 'absent']);
  assert.deepEqual(await strip('core 0 · sg00'), ['first', 'unchanged', 'unchanged', 'unchanged']);

  // The parting's pass opens its diff of the module that changed: the line gone.
  await page.locator('#passes-parted .parting.first .pass-link').click();
  await page.locator('#pass-diff .unit-diff').first().waitFor({ timeout: 60000 });
  assert.match(await page.locator('#pass-diff h3').innerText(), /^`unroll` on nc01\/sg00: its dump against the one after `expand_replication`$/);
  const removed = await page.locator('#pass-diff tr.changed td.a del').allInnerTexts();
  assert.ok(removed.some((line) => line.includes(lost)), removed.join('\n'));
  assert.equal(await page.locator('#pass-diff tr.changed td.b ins').count(), 0);
  const shown = await page.locator('#pass-diff .unit-diff').count();
  await page.locator('#show-unchanged-units').check();
  await page.waitForFunction((n) => document.querySelectorAll('#pass-diff .unit-diff').length > n, shown);
  assert.ok(await page.locator('#pass-diff .unit-diff.unchanged').count() > 0);
  // `j`: the module's next pass, which changed nothing.
  await page.locator('#passes-table').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('j');
  await page.waitForFunction(() => /^`localize_shared_memory` on nc01\/sg00/.test(document.querySelector('#pass-diff h3')?.textContent ?? ''));

  // The page's history.json is `birlink history --format json`'s.
  const json = await download(page, '#passes-json');
  const cli_json = execFileSync(cli(), ['history', work, '--entity', lost, '--format', 'json']);
  assert.equal(json.toString(), cli_json.toString());
  await page.screenshot({ path: path.join(root, 'target', 'passes.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('reading a larger directory shows its progress and stops on Cancel', async () => {
  const big = path.join(scratch, 'big');
  execFileSync(cli(), ['gen', '--cores', '2', '--flow', 'flat', '--insts', '20000', '--print-after', '12', '--out', big], { stdio: 'ignore' });
  const page = await open(browser, server.url);
  await page.setInputFiles('#folder-input', big);
  await verdict(page, 120000);
  await page.locator('#tab-passes').click();
  await page.locator('#passes-progress').waitFor({ timeout: 60000 });
  await page.locator('#passes-cancel').click();
  await page.locator('#passes-again').waitFor();
  assert.match(await page.locator('.passes-status').innerText(), /Stopped: the dumps were not all read/);
  assert.equal(await page.locator('#passes-table').count(), 0);
  // Read again, to the end.
  await page.locator('#passes-again').click();
  await page.locator('#passes-table').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('#passes-table tbody tr').count(), 12);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('screenshots of the Passes view, light and dark (docs/history.md)', async () => {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1400 }, colorScheme: scheme });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.setInputFiles('#folder-input', work);
    await page.locator('#verdict').waitFor({ timeout: 60000 });
    await page.locator('#tab-passes').click();
    await page.locator('#passes-table').waitFor({ timeout: 60000 });
    await page.fill('#passes-entity', error());
    await page.locator('#passes-follow').click();
    await page.locator('#passes-entity-history').waitFor({ timeout: 60000 });
    await page.locator('#passes-parted .parting.first .pass-link').click();
    await page.locator('#pass-diff .unit-diff').first().waitFor({ timeout: 60000 });
    await page.locator('.passes-view').screenshot({ path: path.join(root, `docs/img/passes-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
