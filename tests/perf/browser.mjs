// Browser figures (not a test: numbers for the notes and docs/benchmarks.md).
//
//   node tests/perf/browser.mjs [CORES INSTS] [--shape gen|real] [--keys sorted|producer]
//                               [--indented] [--dir DIR] [--skip-sample] [--against DIR]
//
// (default 8 100000, the generator's own shape, compact). `--dir` opens the .json files of
// a folder already written (say, by a streamed `birlink gen` when the machine cannot hold
// the generator and the browser at once) instead of generating one; it is not removed.
//
// `--against DIR` then opens a second link set (the .json files of DIR) in the Compare
// view, and measures the comparison: from B's files given to the comparison drawn, the
// worker's memory holding both, the longest main-thread task, against `birlink link` of
// each set one after the other and `birlink diff` of the two (native, one thread).
//
// Needs dist/ (trunk build --release) and target/release/birlink. Measures:
//  * the default sample: time from navigation to the first views rendered;
//  * a generated CORES x INSTS set opened through the file input: total time, the
//    progress states seen, the longest main-thread task (PerformanceObserver
//    'longtask'), and that the views respond afterwards;
//  * the pipeline time in the worker (wasm) against the CLI (native, on one thread as the
//    worker is) on the same files (the CLI's time includes writing linked.json and
//    report.json to disk), and the time to the verdict against the CLI's, and against the
//    CLI's plus the browser's own floor (the same files read from a file input in 8 MB
//    slices and dropped: what Chromium takes to hand a page a file's bytes);
//  * the worker's wasm memory after the run, and its ratio to the input's bytes;
//  * the size of the wasm and JS the page loads, raw and gzipped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, root, dist } from '../e2e/harness.mjs';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : fallback;
};
const has = (name) => {
  const at = argv.indexOf(name);
  if (at >= 0) argv.splice(at, 1);
  return at >= 0;
};
const shape = flag('--shape', 'gen');
const keys = flag('--keys', 'sorted');
const given = flag('--dir', null);
const againstDir = flag('--against', null);
const indented = has('--indented');
const skipSample = has('--skip-sample');
const [cores = '8', insts = '100000'] = argv;
const birlink = path.join(root, 'target/release/birlink');
// The CLI's outputs go to memory when the machine has a tmpfs (a slow disk would be timed).
const scratch = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

function gz(file) {
  const data = fs.readFileSync(file);
  return { raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
}

const server = await serve();
const browser = await launch();
const report = {};

// 1. Default sample, first views.
if (!skipSample) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const page = await open(browser, server.url);
    await verdict(page);
    times.push(await page.evaluate(() => performance.now()));
    await page.context().close();
  }
  times.sort((a, b) => a - b);
  report.default_sample_first_views_ms = { median: Math.round(times[2]), all: times.map(Math.round) };
}

// 2. A large generated set through the file input.
{
  const dir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-perf-'));
  if (!given) {
    execFileSync(birlink, ['gen', '--cores', cores, '--insts', insts, '--handoffs', '16', '--remote-dma', '64',
      '--barriers', '32', '--loops', '3', ...(indented ? [] : ['--compact']), '--shape', shape, '--keys', keys,
      '--out', dir], { stdio: 'ignore' });
  }
  // A folder of per-core files, or a work directory of the compiler's flows
  // (`ncCC/sgKK/…`, opened as a folder, as a user would).
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.json') ? [path.join(d, e.name)] : []);
  const files = walk(dir).sort();
  const inFolders = files.some((f) => path.dirname(f) !== dir);
  const linkArgs = inFolders ? [dir] : files;
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);

  const nativeBefore = (() => {
    const out = fs.mkdtempSync(path.join(scratch, 'birlink-perf-out-'));
    const t = process.hrtime.bigint();
    execFileSync(birlink, ['link', ...linkArgs, '--out', out, '--quiet', '--threads', '1'], { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    fs.rmSync(out, { recursive: true, force: true });
    return ms;
  })();

  const page = await open(browser, server.url);
  const first = await verdict(page);
  await page.evaluate(() => {
    window.__label = 'loading';
    window.__tasks = [];
    window.__phases = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__tasks.push({ during: window.__label, ms: Math.round(entry.duration), at: Math.round(entry.startTime) });
    }).observe({ type: 'longtask', buffered: false });
    new MutationObserver(() => {
      const status = document.querySelector('.status.running span');
      if (status && window.__phases[window.__phases.length - 1] !== status.textContent) window.__phases.push(status.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const started = Date.now();
  const givenFrom = await page.evaluate(() => Math.round(performance.now()));
  await page.setInputFiles(inFolders ? '#folder-input' : '#file-input', inFolders ? dir : files);
  const givenTo = await page.evaluate(() => Math.round(performance.now()));
  const text = await nextVerdict(page, first, 15 * 60 * 1000);
  const total = Date.now() - started;
  const stats = await page.evaluate(() => ({
    phases: window.__phases,
    load: Number(document.querySelector('#verdict').dataset.loadMs),
    pipeline: Number(document.querySelector('#verdict').dataset.pipelineMs),
    memory: Number(document.querySelector('#verdict').dataset.memoryBytes),
    memoryRead: Number(document.querySelector('#verdict').dataset.memoryReadBytes),
  }));
  // The views respond: switch through them and time the slowest.
  let slowest = 0;
  for (const key of ['2', '3', '4', '5', '6', '1']) {
    await page.evaluate((k) => { window.__label = `view key ${k}`; }, key);
    const t = Date.now();
    await page.keyboard.press(key);
    await page.waitForTimeout(0);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    slowest = Math.max(slowest, Date.now() - t);
  }
  // Long tasks (over 50 ms), longest first, with what the page was doing.
  const tasks = (await page.evaluate(() => window.__tasks)).sort((a, b) => b.ms - a.ms);

  // The same files, natively, before the browser's run and after it (the machine is
  // noisy: the two bracket the browser's run, and their mean is the comparison).
  const out = fs.mkdtempSync(path.join(scratch, 'birlink-perf-out-'));
  const nativeRun = () => {
    const t = process.hrtime.bigint();
    execFileSync(birlink, ['link', ...linkArgs, '--out', out, '--quiet', '--threads', '1'], { stdio: 'ignore' });
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const native = (nativeBefore + nativeRun()) / 2;
  // The browser's own floor: the same files read from a file input in 8 MB slices, as the
  // worker reads them, the bytes dropped (what getting a file's bytes out of Chromium
  // costs before anything is done with them; the CLI's time has no such step).
  await page.evaluate(() => {
    const input = Object.assign(document.createElement('input'), { type: 'file', multiple: true, id: 'perf-read-floor', hidden: true });
    document.body.append(input);
  });
  await page.setInputFiles('#perf-read-floor', files);
  const readFloor = await page.evaluate(async () => {
    const started = performance.now();
    for (const file of document.querySelector('#perf-read-floor').files) {
      for (let at = 0; at < file.size; at += 8 << 20) await file.slice(at, at + (8 << 20)).arrayBuffer();
    }
    return performance.now() - started;
  });

  report.large_set = {
    set: given ?? `${cores} x ${insts}, ${shape} shape, ${indented ? 'indented' : 'compact'}, keys ${keys}`,
    files: files.length, bytes, verdict: text.split('\n')[0],
    total_ms: total, worker_blob_read_ms: Math.round(stats.load), wasm_pipeline_ms: Math.round(stats.pipeline),
    native_cli_one_thread_ms: Math.round(native), native_runs_ms: [Math.round(nativeBefore), Math.round(2 * native - nativeBefore)], wasm_over_native: +(stats.pipeline / native).toFixed(2),
    verdict_over_native: +(total / native).toFixed(2),
    browser_read_floor_ms: Math.round(readFloor), verdict_over_native_plus_read_floor: +(total / (native + readFloor)).toFixed(2),
    worker_wasm_memory_mb: Math.round(stats.memory / 1e6), wasm_memory_over_input: +(stats.memory / bytes).toFixed(2),
    worker_wasm_memory_after_reading_mb: Math.round(stats.memoryRead / 1e6),
    progress_states_seen: stats.phases.length, progress_sample: stats.phases.slice(0, 4),
    longest_main_thread_task_ms: tasks.length ? tasks[0].ms : 0,
    long_tasks: tasks.slice(0, 5),
    files_handed_to_page_at_ms: [givenFrom, givenTo],
    slowest_view_switch_ms: slowest,
  };
  // A second set compared against the first, in the Compare view.
  if (againstDir) {
    const bFiles = fs.readdirSync(againstDir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(againstDir, f));
    const bBytes = bFiles.reduce((n, f) => n + fs.statSync(f).size, 0);
    await page.evaluate(() => { window.__label = 'comparing'; });
    await page.keyboard.press('8');
    await page.locator('#against-panel').waitFor();
    const t = Date.now();
    await page.setInputFiles('#against-file-input', bFiles);
    await page.locator('#compare-verdict').waitFor({ timeout: 15 * 60 * 1000 });
    const compareMs = Date.now() - t;
    const b = await page.evaluate(() => ({
      memory: Number(document.querySelector('#against-summary').dataset.memoryBytes),
      pipeline: Number(document.querySelector('#against-summary').dataset.pipelineMs),
      verdict: document.querySelector('#compare-verdict').textContent,
    }));
    const comparingTasks = (await page.evaluate(() => window.__tasks)).filter((x) => x.during === 'comparing').sort((x, y) => y.ms - x.ms);
    const time = (args) => {
      const started = process.hrtime.bigint();
      execFileSync(birlink, args, { stdio: 'ignore' });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const o = fs.mkdtempSync(path.join(scratch, 'birlink-perf-out-'));
    const linkA = time(['link', ...files, '--out', o, '--quiet', '--threads', '1']);
    const linkB = time(['link', ...bFiles, '--out', o, '--quiet', '--threads', '1']);
    fs.rmSync(o, { recursive: true, force: true });
    let diffMs = 0;
    try { diffMs = time(['diff', ...files, '--against', ...bFiles, '--format', 'json']); } catch (e) { diffMs = NaN; }
    report.comparison = {
      against: againstDir, bytes_a: bytes, bytes_b: bBytes, verdict: b.verdict,
      b_files_given_to_comparison_drawn_ms: compareMs, b_worker_ms: Math.round(b.pipeline),
      worker_wasm_memory_both_mb: Math.round(b.memory / 1e6), wasm_memory_over_both_inputs: +(b.memory / (bytes + bBytes)).toFixed(2),
      native_link_a_then_b_one_thread_ms: Math.round(linkA + linkB), native_diff_ms: Math.round(diffMs),
      longest_main_thread_task_ms: comparingTasks.length ? comparingTasks[0].ms : 0, long_tasks: comparingTasks.slice(0, 5),
    };
  }
  if (!given) fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
}

// 3. What the page loads.
{
  const sizes = {};
  for (const f of ['app_bg.wasm', 'app.js', 'worker_bg.wasm', 'worker.js', 'worker_loader.js', 'boot.js']) {
    const file = path.join(dist, f);
    if (fs.existsSync(file)) sizes[f] = gz(file);
  }
  const sum = (k) => Object.values(sizes).reduce((n, s) => n + s[k], 0);
  report.bundle = { files: sizes, total_raw: sum('raw'), total_gzip: sum('gzip') };
}

console.log(JSON.stringify(report, null, 2));
await browser.close();
await server.close();
