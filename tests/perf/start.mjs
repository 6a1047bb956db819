// The page's start (not a test: numbers for the notes and docs/benchmarks.md).
//
//   node tests/perf/start.mjs [DIST] [--loads 7] [--throttle MBIT]
//
// Serves DIST (default dist/) on 127.0.0.1, gzipped as a static host would, and loads
// the page cold (a new browser context each time, nothing cached) LOADS times; with
// `--throttle`, over an emulated link of that many Mbit/s and 40 ms latency (the
// hosted page from far away, or `birlink open` through an SSH tunnel). Prints, as the
// median over the loads: what the page fetched before its first view (each resource,
// its bytes on the wire, when it started and ended), when the app's wasm was compiled,
// the first paint, and when the first drawn view (the default sample's verdict and its
// views) appeared.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { launch, root } from '../e2e/harness.mjs';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : fallback;
};
const loads = Number(flag('--loads', '7'));
const throttle = flag('--throttle', null);
const dir = path.resolve(argv[0] ?? path.join(root, 'dist'));

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
};
const gzipped = new Map();
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  let file = path.join(dir, decodeURIComponent(url.pathname));
  if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404).end(); return; }
  if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'content-encoding': 'gzip' });
  res.end(gzipped.get(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await launch();
const runs = [];
for (let i = 0; i < loads; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const bytesPerSecond = (Number(throttle) * 1e6) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 40, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond,
    });
  }
  await page.goto(url);
  await page.waitForFunction(() => {
    const verdict = document.querySelector('#verdict');
    return verdict && !verdict.closest('.running') && /linked|failed/.test(verdict.textContent);
  }, null, { timeout: 120000 });
  // The first view is drawn: its pipeline table is in the document.
  await page.waitForSelector('section.view');
  const view = await page.evaluate(() => performance.now());
  const timing = await page.evaluate(() => ({
    resources: performance.getEntriesByType('resource').map((r) => ({
      name: r.name.replace(location.origin + '/', ''), start: r.startTime, end: r.responseEnd, wire: r.transferSize, body: r.decodedBodySize,
    })),
    paint: performance.getEntriesByType('paint').map((p) => ({ name: p.name, at: p.startTime })),
  }));
  runs.push({ view, ...timing });
  await context.close();
}
await browser.close();
server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const byName = new Map();
for (const run of runs) {
  for (const r of run.resources) {
    if (r.start > run.view) continue;
    if (!byName.has(r.name)) byName.set(r.name, []);
    byName.get(r.name).push(r);
  }
}
const rows = [...byName.entries()].map(([name, rs]) => ({
  name,
  wire: median(rs.map((r) => r.wire)),
  body: median(rs.map((r) => r.body)),
  start: Math.round(median(rs.map((r) => r.start))),
  end: Math.round(median(rs.map((r) => r.end))),
})).sort((a, b) => a.start - b.start);
const total = rows.reduce((n, r) => ({ wire: n.wire + r.wire, body: n.body + r.body }), { wire: 0, body: 0 });
console.log(`${dir}: ${loads} cold loads${throttle ? `, ${throttle} Mbit/s and 40 ms` : ', loopback'}, gzipped; medians`);
console.log('| fetched before the first view | on the wire | body | start | end |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${(r.wire / 1024).toFixed(0)} KB | ${(r.body / 1024).toFixed(0)} KB | ${r.start} ms | ${r.end} ms |`);
console.log(`| **all** | **${(total.wire / 1024).toFixed(0)} KB** | ${(total.body / 1024).toFixed(0)} KB | | |`);
const paint = median(runs.map((r) => r.paint.find((p) => p.name === 'first-contentful-paint')?.at ?? NaN));
console.log(`first contentful paint ${Math.round(paint)} ms; first view (the default sample linked and drawn) ${Math.round(median(runs.map((r) => r.view)))} ms (all: ${runs.map((r) => Math.round(r.view)).join(', ')})`);
