// The compiler's log as a timeline (issue 30), in Chromium: a work directory that carries
// its log-neuron-cc.txt opens with the compile's passes in lanes by scope, the failing
// pass marked with its assertion and error, the dumps printed after a pass listed, the
// log held beside birlink's run (the failure is birlink's BL0207 about the same name;
// each core's BirLinker block agrees with birlink's bir_linker.log); the log's JSON is
// the CLI's, byte for byte; a 50 MB log dropped alone is read by the worker without
// freezing the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, download, cli, samples } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** What `birlink explain --log LOG DUMPS --format json` prints for a sample. */
function cliJson(sample) {
  const dir = path.join(samples, sample);
  return execFileSync(cli(), ['explain', '--log', path.join(dir, 'log-neuron-cc.txt'), dir, '--format', 'json']);
}

test('a failing work directory with its log: the timeline, the failing pass, its dumps, and the name where the compiler found it', async () => {
  const page = await open(browser, `${server.url}?sample=workdir-illc059`, { viewport: { width: 1400, height: 1000 } });
  assert.match(await verdict(page), /linked nc00, nc01.*0 errors, 2 warnings/s);
  const timeline = page.locator('#log-timeline');
  await timeline.waitFor();
  // The log is not linked: the link set is the two dumps.
  assert.match(await page.locator('#log-findings header h3').innerText(), /^workdir-illc059\/log-neuron-cc\.txt \(5\.\d kB\)/);
  assert.match(await page.locator('#log-compile-facts').innerText(), /neuronx-cc 2\.24\.5133\.0\+58f8de22 · LNC 2 · flat flow · 2 modules loaded · 12 passes run/);
  // Lanes by scope; the failing pass is sg00's lower_local_collectives, the only red one.
  const lanes = await timeline.locator('text.tl-lane').allTextContents();
  assert.deepEqual(lanes, ['all modules', 'nc00', 'nc01', 'sg00', 'nc00/sg00', 'nc01/sg00']);
  const failed = timeline.locator('rect.tl-failed');
  assert.equal(await failed.count(), 1);
  assert.equal(await failed.getAttribute('data-pass'), 'lower_local_collectives');
  assert.equal(await failed.getAttribute('data-scope'), 'sg00');
  // The pass before it dumped each core's module: chosen, it lists core 1's.
  assert.equal(await timeline.locator('rect.tl-dumped').count(), 2);
  await timeline.locator('rect[data-pass="coloring_allocator_dram"][data-scope="nc01/sg00"]').click();
  assert.deepEqual(await page.locator('#timeline-dumps li').allInnerTexts(),
    ['workdir-illc059/nc01/sg00/bir_debug.9.after-coloring_allocator_dram.before-lower_local_collectives.penguin.json']);
  // A pass with no dump loaded says which flags print it.
  await timeline.locator('rect[data-pass="oom_checker"][data-scope="nc00"]').press('Enter');
  assert.match(await page.locator('#timeline-no-dumps').innerText(), /--internal-print-after=oom_checker --internal-compiler-debug-mode=all/);
  // The failing pass: its error and assertion, and the name in the loaded dumps.
  await failed.click();
  const details = await page.locator('#timeline-pass').innerText();
  assert.match(details, /lower_local_collectives on subgraph sg00, across the cores: failed after 0\.000 s/);
  assert.match(details, /NCC_ILLC059 Could not find MemoryLocation named inst____mp_main__\.sbuf_allreduce_tp4-0:sbuf_in\.31 on core 1/);
  assert.match(details, /Assertion memlocOnOtherCore != nullptr at lower_local_collectives\.cpp:78/);
  // Beside birlink's run: the same failure, birlink's BL0207 about the same name.
  assert.match(await page.locator('#beside-failure').innerText(), /birlink reports it too: warning\[BL0207\] local collective `sbuf_allreduce_tp4_0` on core 0 of subgraph 0 names `inst____mp_main__\.sbuf_allreduce_tp4-0:sbuf_in\.31`/);
  await page.locator('#log-findings').screenshot({ path: 'docs/img/log-timeline.png' });
  await page.keyboard.press('1');
  await page.click('#timeline-jump');
  await page.waitForFunction(() => document.querySelector('#tab-diagnostics')?.getAttribute('aria-selected') === 'true');
  assert.match(await page.locator('#view-diagnostics .selected').first().innerText(), /BL0207[\s\S]*sbuf_in\.31/);
  // The log's JSON is the CLI's for the same log beside the same dumps.
  const json = await download(page, '#log-download');
  assert.equal(json.toString(), cliJson('workdir-illc059').toString().trimEnd());
  assert.deepEqual(page.errors, []);
});

test('a modular work directory with its log: the BirLinker blocks agree with birlink, and the JSON is the CLI\'s', async () => {
  const page = await open(browser, `${server.url}?sample=workdir-moe`, { viewport: { width: 1400, height: 1000 } });
  assert.match(await verdict(page), /linked nc00\/sgLnk, nc01\/sgLnk/);
  // Each subgraph's dump is named by its module's place, not by its core alone.
  assert.deepEqual(await page.locator('#workdir .workdir-picked .core').allInnerTexts(),
    ['nc00/sg00', 'nc00/sg01', 'nc00/sg02', 'nc01/sg00', 'nc01/sg01', 'nc01/sg02']);
  await page.locator('#log-beside').waitFor();
  const beside = await page.locator('#log-beside').innerText();
  assert.match(beside, /bir_linker nc00\/sgLnk: the log's BirLinker lines and birlink's bir_linker\.log agree \(60 lines\)/);
  assert.match(beside, /bir_linker nc01\/sgLnk: .* agree \(60 lines\)/);
  // What a real block carries and birlink cannot know, set aside and said; the VNC lines agree too.
  assert.match(await page.locator('#beside-set-aside').innerText(), /1 cwd, 9 symlink, 3 unique_id, 1 post_link_stats, 2 total_intermediate/);
  assert.match(await page.locator('#beside-vnc').innerText(), /The VNC passes: the log's lines and birlink's agree \(4 lines\)/);
  // Codegen's tables, the cores side by side: 0xd8 named with its source, the
  // EVENT_SEMAPHORE row (different per core) marked, the barrier row not.
  const stats = page.locator('#log-codegen-stats');
  assert.match(await stats.locator('.cg-slot[data-slot="sgLnk"] p').innerText(), /sgLnk — the cores' opcode counts differ \(marked\)/);
  const opcodes = stats.locator('#cg-sgLnk-opcodes');
  assert.deepEqual(await opcodes.locator('thead th').allInnerTexts(), ['', 'core 0', 'core 1']);
  assert.deepEqual(await opcodes.locator('tr.cg-differs th').allTextContents(), ['EVENT_SEMAPHORE']);
  assert.doesNotMatch((await opcodes.locator('tr', { hasText: 'PSEUDO_CORE_BARRIER' }).getAttribute('class')) ?? '', /cg-differs/);
  assert.match(await stats.locator('.cg-named').innerText(), /PSEUDO_CORE_BARRIER is printed UNKNOWN\(0xd8\): named from opcode 0xd8/);
  const timeline = page.locator('#log-timeline');
  assert.match(await timeline.locator('.tl-legend').innerText(), /113 passes on 14 scopes/);
  // bir_linker per core, on its own lane; dep_reduction's dumps are the six loaded.
  assert.deepEqual(await timeline.locator('rect[data-pass="bir_linker"]').evaluateAll((rs) => rs.map((r) => r.dataset.scope)), ['nc00', 'nc01']);
  assert.equal(await timeline.locator('rect.tl-dumped[data-pass="dep_reduction"]').count(), 6);
  await timeline.locator('rect[data-pass="dep_reduction"][data-scope="nc00/sg01"]').click();
  assert.match(await page.locator('#timeline-dumps').innerText(), /workdir-moe\/nc00\/sg01\/bir_debug\.\d+\.after-dep_reduction/);
  await page.locator('#log-findings').screenshot({ path: 'docs/img/log-timeline-modular.png' });
  const json = await download(page, '#log-download');
  assert.equal(json.toString(), cliJson('workdir-moe').toString().trimEnd());
  assert.deepEqual(page.errors, []);
});

test('a 50 MB log dropped alone is read by the worker: the page never waits on it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-biglog-'));
  const one = fs.readFileSync(path.join(samples, 'workdir-moe/log-neuron-cc.txt'));
  const big = path.join(dir, 'log-neuron-cc.txt');
  const fd = fs.openSync(big, 'w');
  for (let written = 0; written < 50e6; written += one.length) fs.writeSync(fd, one);
  fs.closeSync(fd);
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  const first = await verdict(page);
  await page.evaluate(() => {
    window.__tasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__tasks.push(Math.round(e.duration)); })
      .observe({ type: 'longtask', buffered: false });
  });
  const started = Date.now();
  await page.setInputFiles('#file-input', [big]);
  await page.locator('#log-reading').waitFor();
  await page.locator('#log-timeline').waitFor({ timeout: 120000 });
  const ms = Date.now() - started;
  const facts = await page.locator('#log-compile').innerText();
  assert.match(facts, /\d{3,} compiles in this log; this is the last/);
  // The link set was left as it was.
  assert.equal(await verdict(page), first);
  const longest = Math.max(0, ...(await page.evaluate(() => window.__tasks)));
  console.log(`# a 50 MB log: read and shown in ${ms} ms; longest main-thread task ${longest} ms`);
  assert.ok(longest < 250, `a main-thread task of ${longest} ms`);
  assert.deepEqual(page.errors, []);
  fs.rmSync(dir, { recursive: true, force: true });
});
