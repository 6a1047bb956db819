// Same bytes everywhere: for every sample, report.json and linked.json exported from
// the browser (wasm, in the worker) are byte-identical to the CLI's; and for samples
// printed compact and pretty, keys sorted and not, too (and linked.json does not
// change with the layout).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, download, samples, cli as newestCli } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cli = newestCli();
const index = JSON.parse(fs.readFileSync(path.join(samples, 'index.json'), 'utf8'));

test('every sample: the browser exports the CLI\'s bytes', async () => {
  assert.ok(cli, 'build the CLI first (cargo build --release)');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-identity-'));
  const page = await open(browser, server.url);
  let compared = 0;
  let logs = 0;
  for (const sample of index) {
    const dir = path.join(out, sample.file);
    try {
      // Run from www/samples so the file is named as the browser names it.
      // A work directory's sample in the seeds' reading asks for it, as the page does;
      // the others link as the compiler decides.
      const flow = sample.files?.length && sample.flow === 'seeds' ? ['--flow', 'seeds'] : [];
      execFileSync(cli, ['link', sample.file, '--out', dir, '--quiet', ...flow], { stdio: 'ignore', cwd: samples });
    } catch { /* exit 1 for failing samples: report.json is still written */ }
    await page.goto(`${server.url}?sample=${encodeURIComponent(sample.file)}`);
    await verdict(page);
    const report = await download(page, '#export-report');
    assert.ok(report.equals(fs.readFileSync(path.join(dir, 'report.json'))), `${sample.file}: report.json differs`);
    const linkedFile = path.join(dir, 'linked.json');
    if (fs.existsSync(linkedFile)) {
      const linked = await download(page, '#export-linked');
      assert.ok(linked.equals(fs.readFileSync(linkedFile)), `${sample.file}: linked.json differs`);
    } else {
      assert.equal(await page.locator('#export-linked').isDisabled(), true, `${sample.file}: no linked module, no export`);
    }
    // bir_linker's own log, in the compiler's flows: the same lines, byte for byte.
    const logFile = path.join(dir, 'bir_linker.log');
    if (fs.existsSync(logFile)) {
      const log = await download(page, '#export-log');
      assert.ok(log.equals(fs.readFileSync(logFile)), `${sample.file}: bir_linker.log differs`);
      logs += 1;
    } else if (sample.flow === 'seeds') {
      assert.equal(await page.locator('#export-log').isDisabled(), true, `${sample.file}: the seeds' reading has no log`);
    }
    compared += 1;
  }
  assert.equal(compared, index.length);
  assert.ok(logs >= 9, `the compiler's flows' samples export their log (${logs})`);
  fs.rmSync(out, { recursive: true, force: true });
});

/** `value` printed compact or with two-space indents, keys sorted or reversed (a
 *  producer's own order). */
function print(value, { indent, sorted }) {
  const order = (v) => {
    if (Array.isArray(v)) return v.map(order);
    if (v && typeof v === 'object') {
      const keys = Object.keys(v).sort();
      if (!sorted) keys.reverse();
      return Object.fromEntries(keys.map((k) => [k, order(v[k])]));
    }
    return v;
  };
  return JSON.stringify(order(value), null, indent ? 2 : undefined);
}

test('every layout: the browser exports the CLI\'s bytes for the same files', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-identity-layouts-'));
  const page = await open(browser, server.url);
  const chosen = ['matmul-2core.json', 'error-1514.json', 'unknown-keys-2core.json', 'ring-4core.json'];
  const layouts = [
    { name: 'compact', indent: false, sorted: true },
    { name: 'compact-unsorted', indent: false, sorted: false },
    { name: 'pretty-unsorted', indent: true, sorted: false },
  ];
  const linkedOf = new Map();
  for (const file of chosen) {
    const value = JSON.parse(fs.readFileSync(path.join(samples, file), 'utf8'));
    for (const layout of layouts) {
      const dir = path.join(out, layout.name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, file), print(value, layout));
      const result = path.join(dir, `${file}.out`);
      try {
        execFileSync(cli, ['link', file, '--out', result, '--quiet'], { stdio: 'ignore', cwd: dir });
      } catch { /* a failing sample exits 1 */ }
      // From a sample whose verdict none of these has, so the new run is seen.
      await page.goto(`${server.url}?sample=error-BL0105.json`);
      const before = await verdict(page);
      await page.setInputFiles('#file-input', path.join(dir, file));
      await nextVerdict(page, before, 60000);
      const report = await download(page, '#export-report');
      assert.ok(report.equals(fs.readFileSync(path.join(result, 'report.json'))), `${file}, ${layout.name}: report.json differs`);
      const linkedFile = path.join(result, 'linked.json');
      if (fs.existsSync(linkedFile)) {
        const linked = await download(page, '#export-linked');
        assert.ok(linked.equals(fs.readFileSync(linkedFile)), `${file}, ${layout.name}: linked.json differs`);
        // And the layout does not change it.
        const seen = linkedOf.get(file);
        if (seen) assert.ok(seen.equals(linked), `${file}: ${layout.name} links to other bytes`);
        else linkedOf.set(file, linked);
      }
    }
  }
  assert.deepEqual(page.errors, []);
  fs.rmSync(out, { recursive: true, force: true });
});
