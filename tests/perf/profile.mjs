// Where the page's main thread spends its time (not a test): a CPU profile of opening a
// large generated link set and of switching to each view, summed per function.
//
//   node tests/perf/profile.mjs DIST [CORES INSTS]      (default 8 100000)
//
// DIST is a build whose wasm keeps its function names, e.g. a copy of index.html with
// `data-wasm-opt="0" data-keep-debug` built by `trunk build COPY.html --release --dist DIST`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, root } from '../e2e/harness.mjs';
const [dir, cores = '8', insts = '100000'] = process.argv.slice(2);
const setDir = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-profile-'));
execFileSync(path.join(root, 'target/release/birlink'), ['gen', '--cores', cores, '--insts', insts, '--handoffs', '16',
  '--remote-dma', '64', '--barriers', '32', '--loops', '3', '--compact', '--out', setDir], { stdio: 'ignore' });
const files = fs.readdirSync(setDir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(setDir, f));
const server = await serve(dir);
const browser = await launch();
const page = await open(browser, server.url);
const first = await verdict(page);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
function summarize(profile, label) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const name = n.callFrame.functionName || n.callFrame.url.split('/').pop() || '(anon)';
    self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  console.log(`== ${label}`);
  for (const [name, ms] of top) console.log(ms.toFixed(1).padStart(8), name.slice(0, 150));
  // inclusive time for yew/birlink-ish frames
  const total = new Map();
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id, i) => {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur).callFrame.functionName;
      if (!name || seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + (dt[i] ?? 0) / 1000);
    }
  });
  const topIncl = [...total.entries()].filter(([n]) => /birlink|yew|serde|state|components|Report|run_result|RunResult/i.test(n)).sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log(`-- inclusive`);
  for (const [name, ms] of topIncl) console.log(ms.toFixed(1).padStart(8), name.slice(0, 150));
}
await cdp.send('Profiler.start');
await page.setInputFiles('#file-input', files);
await nextVerdict(page, first, 15 * 60 * 1000);
await page.waitForTimeout(500);
summarize((await cdp.send('Profiler.stop')).profile, 'loading');
for (const key of ['2', '4', '3', '5', '6', '1']) {
  await cdp.send('Profiler.start');
  await page.keyboard.press(key);
  await page.waitForTimeout(300);
  summarize((await cdp.send('Profiler.stop')).profile, `view ${key}`);
}
await browser.close();
await server.close();
fs.rmSync(setDir, { recursive: true, force: true });
