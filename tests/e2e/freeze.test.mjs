// The page never freezes (ARCHITECTURE.md): a real-shaped link set of a real compile's
// size per core (2 cores × 75k instructions, keys in a producer's order; compact, as the
// layout changes what the worker reads, not what reaches the page) is opened from a file input and every view is visited, while a
// PerformanceObserver records every main-thread task over 50 ms.
//
// The budget is 250 ms for the longest task: the goal is 50 ms, reached on a quiet
// machine (docs/benchmarks.md: 33–54 ms), and this shared 2-core machine, with a
// headless Chromium and the test runner beside it, has shown single tasks of 134 ms under
// load. Five times the goal leaves that margin and still fails on what freezing looks
// like: a report read back in the message handler, a view drawing thousands of rows,
// the link itself on the page's thread (each of those is seconds at this size).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, cli, scratch } from './harness.mjs';

const BUDGET_MS = 250;

let server;
let browser;
let files;
before(async () => {
  server = await serve();
  browser = await launch();
  const dir = scratch('freeze');
  execFileSync(cli(), ['gen', '--shape', 'real', '--keys', 'producer', '--compact', '--cores', '2', '--insts', '75000',
    '--handoffs', '40', '--remote-dma', '40', '--barriers', '60', '--out', dir], { stdio: 'ignore' });
  files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f));
});
after(async () => { await browser?.close(); await server?.close(); });

test(`a real-sized set opens and every view draws with no main-thread task over ${BUDGET_MS} ms`, async () => {
  const page = await open(browser, server.url);
  const first = await verdict(page);
  await page.evaluate(() => {
    window.__tasks = [];
    window.__doing = 'linking';
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__tasks.push({ ms: Math.round(entry.duration), during: window.__doing });
    }).observe({ type: 'longtask', buffered: false });
  });
  // The observer sees what it must: a task made long on purpose is recorded (a timer's
  // task: what the test runner evaluates in the page is not one).
  await page.evaluate(() => setTimeout(() => { const until = performance.now() + 120; while (performance.now() < until); }, 0));
  await page.waitForFunction(() => window.__tasks.some((t) => t.ms >= 100));
  await page.evaluate(() => { window.__tasks = []; });
  await page.setInputFiles('#file-input', files);
  const text = await nextVerdict(page, first, 10 * 60 * 1000);
  assert.match(text, /linked nc00/, text);
  // Every view, by its key, each drawn before the next.
  for (const key of ['2', '3', '4', '5', '6', '8', '1']) {
    await page.evaluate((k) => { window.__doing = `view ${k}`; }, key);
    await page.keyboard.press(key);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
  }
  const tasks = await page.evaluate(() => window.__tasks);
  const longest = tasks.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, during: 'nothing' });
  console.log(`long tasks: ${tasks.length}, longest ${longest.ms} ms (${longest.during})`);
  assert.ok(longest.ms <= BUDGET_MS, `a main-thread task of ${longest.ms} ms during ${longest.during}: ${JSON.stringify(tasks)}`);
  assert.deepEqual(page.errors, []);
});
