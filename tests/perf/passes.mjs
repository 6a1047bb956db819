// The Passes view on a large work directory (issue 42: "a 10 GB directory opens"):
// opens DIR through the folder input of the release build in headless Chromium, links
// it, opens the Passes view and times the reading of every dump, with the worker's
// progress sampled; prints the figures. Not part of the e2e suite (the directory is
// large): `birlink gen --cores 2 --insts 75000 --shape real --compact --flow flat
// --print-after 82 --out DIR` writes a 10 GB one.
//
//     node tests/perf/passes.mjs DIR [NAME]
//
// With NAME, the name is then followed (the Passes view's Follow, the table held: read
// alone, `--no-table`) and the time to its strip is printed too.

import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict } from '../e2e/harness.mjs';

/** Each kind of the browser's processes' resident set, in bytes (a worker runs in its page's renderer). */
function rssByKind() {
  const kinds = {};
  try {
    const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss=,args='], { encoding: 'utf8' });
    for (const line of out.split('\n').filter(Boolean)) {
      const [kb, ...args] = line.trim().split(/\s+/);
      const kind = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
      kinds[kind] = Math.max(kinds[kind] ?? 0, Number(kb) * 1024);
    }
  } catch {
    // No process to measure.
  }
  return kinds;
}

function largest(peak, now) {
  for (const [kind, bytes] of Object.entries(now)) peak[kind] = Math.max(peak[kind] ?? 0, bytes);
  return peak;
}

const [dir, entity] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node tests/perf/passes.mjs DIR [NAME]');
  process.exit(2);
}
const server = await serve();
const browser = await launch();
try {
  const page = await open(browser, server.url);
  const started = Date.now();
  await page.setInputFiles('#folder-input', dir);
  const said = await verdict(page, 600000);
  const linked = Date.now();
  console.log(`linked in ${((linked - started) / 1000).toFixed(1)} s: ${said.split('\n')[0]}`);
  await page.locator('#tab-passes').click();
  let last = '';
  // The worker's wasm memory: the glue's init promise, asked again, resolves to its exports.
  const wasmBytes = async () => {
    let most = 0;
    for (const worker of page.workers()) {
      most = Math.max(most, await worker.evaluate(async () => (await wasm_bindgen())?.memory?.buffer.byteLength ?? 0).catch(() => 0));
    }
    return most;
  };
  let peak = rssByKind();
  let wasmPeak = await wasmBytes();
  for (;;) {
    peak = largest(peak, rssByKind());
    wasmPeak = Math.max(wasmPeak, await wasmBytes());
    const table = await page.locator('#passes-table').count();
    const progress = await page.locator('#passes-progress').count();
    if (table > 0 && progress === 0) break;
    const text = progress ? await page.locator('#passes-progress').innerText() : '';
    if (text && text !== last) {
      last = text;
      console.log(`${((Date.now() - linked) / 1000).toFixed(1)} s: ${text.replace(/\s+/g, ' ')}`);
    }
    await page.waitForTimeout(2000);
  }
  const read = Date.now();
  const rows = await page.locator('#passes-table tbody tr').count();
  const heads = await page.locator('#passes-table thead th').allInnerTexts();
  const unread = await page.locator('.passes-view .unread, .passes-view [data-unread]').count();
  console.log(`every dump read in ${((read - linked) / 1000).toFixed(1)} s: ${rows} passes × ${heads.length - 1} modules, ${unread} unread`);
  const wasm = await page.locator('#verdict').getAttribute('data-memory-bytes');
  wasmPeak = Math.max(wasmPeak, await wasmBytes());
  console.log(`the worker's wasm memory after the link ${(Number(wasm) / 1e6).toFixed(0)} MB, after every dump ${(wasmPeak / 1e6).toFixed(0)} MB; the largest process of each kind while the dumps were read: ${Object.entries(peak).map(([k, b]) => `${k} ${(b / 1e6).toFixed(0)} MB`).join(', ')}; page errors: ${JSON.stringify(page.errors)}`);
  if (entity) {
    // Follow the name: the table is held, so the dumps are read for it alone.
    const asked = Date.now();
    await page.locator('#passes-entity').fill(entity);
    await page.click('#passes-follow');
    await page.locator('#passes-entity-history').waitFor({ timeout: 1800000 });
    const followed = Date.now();
    const seen = await page.locator('#passes-entity-history .last-seen li').allInnerTexts();
    wasmPeak = Math.max(wasmPeak, await wasmBytes());
    console.log(`\`${entity}\` followed through every dump in ${((followed - asked) / 1000).toFixed(1)} s (${seen.join('; ')}); the worker's wasm memory ${(wasmPeak / 1e6).toFixed(0)} MB at most`);
  }
  await page.screenshot({ path: 'target/passes-10g.png' });
} finally {
  await browser.close();
  await server.close();
}
