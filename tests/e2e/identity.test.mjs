// Same bytes everywhere: for every sample, report.json and linked.json exported from
// the browser (wasm, in the worker) are byte-identical to the CLI's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, download, samples, cli as newestCli } from './harness.mjs';

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
  for (const sample of index) {
    const dir = path.join(out, sample.file);
    try {
      // Run from www/samples so the file is named as the browser names it.
      execFileSync(cli, ['link', sample.file, '--out', dir, '--quiet'], { stdio: 'ignore', cwd: samples });
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
    compared += 1;
  }
  assert.equal(compared, index.length);
  fs.rmSync(out, { recursive: true, force: true });
});
