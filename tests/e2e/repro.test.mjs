// From the compiler's error line to a minimal repro (issue 10), in Chromium: a pasted
// log jumps to the diagnostic and entity it names (or says which dumps to load), Reduce
// shows its progress, can be cancelled, and opens its result with the original one step
// away, ready to download and share; the aligned barrier and DMA block views.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, download, cli, scratch } from './harness.mjs';

let server;
let browser;
let big;
before(async () => {
  server = await serve();
  browser = await launch();
  // A 2 x 20k link set with one 1514: long enough to reduce that Cancel can be seen.
  big = scratch('repro');
  execFileSync(cli(), ['gen', '--fault', '1514', '--insts', '20000', '--out', big], { stdio: 'ignore' });
});
after(async () => { await browser?.close(); await server?.close(); });

const ILLC059 = '[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named inst__I-5-0:send_k_buf on core 1';
const IXLV002 = '[INTERNAL_ERROR] [NCC_IXLV002] Expected core barriers to have name CoreBarrier-0_480, but core barrier 5 in subgraph 0 on core 1 has name CoreBarrier-0_180';

/** Pastes `text` on the page, outside any field, as a user's Ctrl+V would. */
async function paste(page, text) {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, text);
}

test('a pasted NCC_ILLC059 line jumps to the 1514 about it and names the nearest buffers', async () => {
  const page = await open(browser, `${server.url}?sample=ring-attention-send-k-buf.json`);
  assert.match(await verdict(page), /link failed in vnc_remote_addr_map/);
  // Away from the diagnostic first, so the jump is seen.
  await page.keyboard.press('1');
  await paste(page, `INFO: compiling\n${ILLC059}\n`);
  const findings = page.locator('#log-findings');
  await findings.waitFor();
  await page.waitForFunction(() => document.querySelector('#log-findings')?.innerText.includes('core 0'));
  const text = await findings.innerText();
  assert.match(text, /line 2/);
  assert.match(text, /NCC_ILLC059/);
  // The compiler's code is lower_local_collectives' (birlink's BL0207); on these linked
  // dumps the same name is the 1514 the run reports.
  assert.match(text, /birlink's BL0207/);
  // The view jumped to the diagnostic, whose details name the missing buffer.
  await page.waitForFunction(() => document.querySelector('#tab-diagnostics')?.getAttribute('aria-selected') === 'true');
  await page.waitForFunction(() => document.querySelector('.details')?.innerText.includes('inst__I-5-0:send_k_buf'));
  assert.match(await page.locator('#view-diagnostics .selected').first().innerText(), /1514[\s\S]*send_k_buf/);
  // The buffer exists on core 0 only: one jump, to core 0's.
  await findings.getByRole('button', { name: 'core 0' }).click();
  await page.waitForFunction(() => document.querySelector('.details')?.innerText.includes('memloc'));
  assert.match(await page.locator('.details').innerText(), /inst__I-5-0:send_k_buf/);
  assert.deepEqual(page.errors, []);
});

test('the Paste error box finds an IXLV002 line and the Barriers view aligns the two names', async () => {
  const page = await open(browser, `${server.url}?sample=sendrecv-called-twice.json`);
  assert.match(await verdict(page), /linked/);
  await page.click('#paste-error');
  await page.locator('#log-text').fill(IXLV002);
  await page.click('#log-read');
  await page.locator('#paste-log').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('#log-findings')?.innerText.includes("birlink's 1189"));
  // The warning it maps to is selected.
  await page.waitForFunction(() => document.querySelector('#tab-diagnostics')?.getAttribute('aria-selected') === 'true');
  assert.match(await page.locator('#view-diagnostics .selected').first().innerText(), /1189[\s\S]*CoreBarrier-0_480/);
  // The Barriers view: row 5 differs, highlighted, with both names side by side.
  await page.keyboard.press('3');
  const check = page.locator('#barrier-alignment');
  await check.waitFor();
  assert.match(await check.innerText(), /core barrier 5 of core 1 is `CoreBarrier-0_180` where core 0 has `CoreBarrier-0_480`/);
  const mismatched = page.locator('#aligned-barriers-table tr.mismatch');
  assert.equal(await mismatched.count(), 1);
  const row = await mismatched.innerText();
  assert.match(row, /CoreBarrier-0_480/);
  assert.match(row, /CoreBarrier-0_180/);
  assert.equal(await page.locator('#aligned-barriers-table .differs').count(), 1);
  await page.locator('#aligned-barriers').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'docs/img/barriers-aligned.png' });
  assert.deepEqual(page.errors, []);
});

test('a log pasted with no link set open says which dumps to load', async () => {
  const page = await open(browser, server.url);
  await verdict(page);
  // The default sample cleared: nothing is open.
  await page.locator('.sidebar').getByRole('button', { name: 'clear' }).click();
  await page.locator('#verdict').waitFor({ state: 'detached' });
  await page.click('#paste-error');
  await page.locator('#log-text').fill(ILLC059);
  await page.keyboard.press('Control+Enter');
  await page.locator('#log-findings').waitFor();
  assert.match(await page.locator('#log-findings').innerText(), /NCC_ILLC059/);
  assert.match(await page.locator('#how-to-dump').innerText(), /per-core BIR modules/);
  // The page's own message stays text: a name that looks like HTML is not markup.
  await page.click('#paste-error');
  await page.locator('#log-text').fill('[NCC_ILLC059] Could not find MemoryLocation named <img/src/onerror=alert(1)> on core 1');
  await page.click('#log-read');
  await page.waitForFunction(() => document.querySelector('#log-findings')?.innerText.includes('<img/src/onerror=alert(1)>'));
  assert.equal(await page.locator('#log-findings img').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('a pasted whole log tells its compile and where it failed: the pass, its scope, the assertion, the code', async () => {
  const log = fs.readFileSync(new URL('../../crates/birlink-core/tests/logs/two-compiles.txt', import.meta.url), 'utf8');
  const page = await open(browser, server.url);
  await verdict(page);
  await page.click('#paste-error');
  await page.locator('#log-text').fill(log);
  await page.click('#log-read');
  await page.locator('#log-compile').waitFor();
  assert.match(await page.locator('#log-compile-facts').innerText(), /neuronx-cc 2\.23\.6484\.0\+3b612583 · LNC 2 · flat flow · 2 modules loaded · \d+ passes run/);
  assert.match(await page.locator('#log-compile').innerText(), /2 compiles in this log; this is the one that failed/);
  const failure = await page.locator('#log-failure').innerText();
  assert.match(failure, /Failed in lower_local_collectives \(sg00\), line \d+: NCC_ILLC059 Could not find MemoryLocation named inst____mp_main__\.sbuf_allreduce_tp4-0:sbuf_in\.23 on core 1/);
  assert.match(await page.locator('#log-assertion').innerText(), /Assertion memlocOnOtherCore != nullptr at lower_local_collectives\.cpp:78/);
  // The error line is still a finding, its name looked for in the open link set.
  assert.match(await page.locator('#log-findings').innerText(), /NCC_ILLC059/);
  await page.locator('#log-findings').screenshot({ path: 'target/log-compile.png' });
  assert.deepEqual(page.errors, []);
});

test('the Semaphores view pairs remote DMA blocks and highlights the unpaired ones of a 1512', async () => {
  const page = await open(browser, `${server.url}?sample=error-1512.json`);
  assert.match(await verdict(page), /link failed in vnc_link/);
  await page.keyboard.press('4');
  const check = page.locator('#block-pairing');
  await check.waitFor();
  assert.match(await check.innerText(), /cannot pair them \(1512/);
  assert.ok(await page.locator('#paired-blocks-table tr.mismatch').count() >= 1);
  assert.match(await page.locator('#paired-blocks-table').innerText(), /no block: unpaired/);
  await page.screenshot({ path: 'docs/img/semaphores-paired.png' });
  // A clean link pairs every block.
  const clean = await open(browser, `${server.url}?sample=matmul-2core.json#view=semaphores`);
  await verdict(clean);
  await clean.locator('#block-pairing').waitFor();
  assert.match(await clean.locator('#block-pairing').innerText(), /every block has a partner/);
  assert.equal(await clean.locator('#paired-blocks-table tr.mismatch').count(), 0);
  assert.deepEqual([...page.errors, ...clean.errors], []);
});

test('Reduce on a large link set shows its progress and stops on Cancel', async () => {
  const page = await open(browser, server.url);
  const first = await verdict(page);
  await page.setInputFiles('#file-input', fs.readdirSync(big).filter((f) => f.endsWith('.json')).map((f) => path.join(big, f)));
  const failed = await nextVerdict(page, first);
  assert.match(failed, /link failed in vnc_remote_addr_map/);
  await page.click('#reduce-button');
  // Progress with its figures, while the page stays responsive.
  await page.waitForFunction(() => /round \d+ · .* · \d+ tests · \d+ instructions/.test(document.querySelector('#reduce-progress')?.innerText ?? ''));
  await page.click('#reduce-cancel');
  await page.locator('#reduce-button').waitFor();
  // Cancelled: no progress comes after it (the worker stopped between tests), and the
  // link set is untouched.
  const after = await page.locator('#reduce-progress').count();
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#reduce-progress').count(), after);
  assert.equal(await page.locator('#reduce-result').count(), 0);
  assert.equal(await page.locator('#verdict').innerText(), failed, 'the link set is untouched');
  assert.equal(await page.locator('#reduce-result').count(), 0);
  // It can be started again.
  await page.click('#reduce-button');
  await page.locator('#reduce-cancel').waitFor();
  await page.click('#reduce-cancel');
  assert.deepEqual(page.errors, []);
});

test('Reduce opens a small repro to download and share, the original one step away', async () => {
  const page = await open(browser, `${server.url}?sample=ring-attention-send-k-buf.json`);
  const first = await verdict(page);
  assert.match(first, /link failed in vnc_remote_addr_map/);
  await page.click('#reduce-button');
  await page.locator('#reduce-result').waitFor({ timeout: 120000 });
  const result = await page.locator('#reduce-result').innerText();
  assert.match(result, /still 1514 in vnc_remote_addr_map/);
  const [, before, after] = result.match(/(\d+) → (\d+) instructions/).map(Number);
  assert.ok(after <= 40 && after < before, result);
  const reduced = await nextVerdict(page, first);
  assert.match(reduced, /link failed in vnc_remote_addr_map/);
  assert.match(await page.locator('#load-panel, .sidebar').first().innerText(), /reduced\.json/);
  // The same failure, named as the original names it (the missing buffer is needed).
  await page.keyboard.press('6');
  assert.match(await page.locator('.details').innerText(), /inst__I-5-0:send_k_buf/);
  await page.screenshot({ path: 'docs/img/reduced.png' });
  // Download: a bundle that records the LNC and still has the buffer's name.
  const bundle = JSON.parse((await download(page, '#reduce-download')).toString());
  assert.equal(bundle.options?.lnc, 2);
  assert.ok(JSON.stringify(bundle).includes('inst__I-5-0:send_k_buf'));
  // Share: a link that carries it, small.
  await page.click('#reduce-share');
  const field = page.locator('#share-url');
  await field.waitFor();
  const link = await field.inputValue();
  assert.match(link, /data=v1\./);
  assert.ok(link.length < 4000, `a reduced repro's link is short: ${link.length}`);
  await page.keyboard.press('Escape');
  // Back to the original: the first verdict again.
  await page.click('#reduce-back');
  const head = (text) => text.split('\n').slice(0, 2).join('\n');
  assert.equal(head(await nextVerdict(page, reduced)), head(first));
  assert.match(await page.locator('.sidebar').innerText(), /ring-attention-send-k-buf\.json/);
  assert.equal(await page.locator('#reduce-result').count(), 0);
  assert.deepEqual(page.errors, []);
});
