import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, verdict, nextVerdict } from '../e2e/harness.mjs';
const dir = process.argv[2];
const files = fs.readdirSync('/tmp/b8').filter((f) => f.endsWith('.json')).sort().map((f) => path.join('/tmp/b8', f));
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
