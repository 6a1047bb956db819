// The Compare view (issue 19): two link sets linked in the worker and compared there,
// the difference that explains them at the top for each public report's pair; B opened
// by link, by the samples menu and by file input; B's entities shown as B's; masking and
// the core map as controls that follow the URL; Swap; Share carrying both sets; the
// element's path (`<birlink-view against=…>`; a host's `load` with `against` is in
// messages.test.mjs); the kernel line behind a diagnostic, an instruction, a search and a
// first divergence, in real-shaped dumps that carry `debug.filename`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, samples, cli } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serve(undefined, {
    pages: {
      '/favicon.ico': { body: '', type: 'image/x-icon' },
      '/host/compare.html': `<!doctype html><meta charset="utf-8"><title>host</title>
        <script type="module" src="/birlink-element.js"></script>
        <birlink-view id="pair" sample="sendrecv-called-once" against="sendrecv-called-twice" height="700"></birlink-view>`,
    },
  });
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

/** The Compare view's verdict line, once the comparison has arrived. */
async function comparison(page) {
  const line = page.locator('#compare-verdict');
  await line.waitFor({ timeout: 30000 });
  return line.innerText();
}

const STORIES = [
  // Rank 0 links, rank 1's dumps fail with 1514 (the compiler stopped earlier, at NCC_ILLC059).
  ['ring-attention-with-grid', 'ring-attention-send-k-buf', /A links; B fails in vnc_remote_addr_map with 1514/],
  // LNC 1 compiles, LNC 2 is the other shape.
  ['matmul-1core', 'matmul-2core', /A links 1 core \(LNC 1, from [a-z]+\); B 2 cores \(LNC 2, from [a-z]+\)/],
  // Called once links; called twice, core 1's barrier names differ (NCC_IXLV002).
  ['sendrecv-called-once', 'sendrecv-called-twice', /only B reports 1189 \(NCC_IXLV002\) about `instruction:1:CoreBarrier-0_180`/],
];

test('each public report, opened as a pair by link, says at the top what explains it', async () => {
  for (const [a, b, story] of STORIES) {
    const page = await open(browser, `${server.url}?sample=${a}&against=${b}`);
    await verdict(page);
    const text = await comparison(page);
    assert.match(text, /^A and B differ: /, `${a}: ${text}`);
    assert.match(text, story, `${a}: ${text}`);
    // A public report's pair tells its story under the verdict.
    assert.match(await page.locator('#compare-story').innerText(), /./);
    assert.match(await page.locator('[role=tab][aria-selected=true]').innerText(), /^Compare/);
    assert.deepEqual(page.errors, [], a);
    await page.context().close();
  }
});

test('the first divergence marks the same words as `birlink diff` (one word diff, in the core)', async () => {
  const [a, b] = ['sendrecv-called-once', 'sendrecv-called-twice'];
  // Exit 1: the two differ (as `diff` says it).
  const run = spawnSync(cli(), ['diff', path.join(samples, `${a}.json`), '--against', path.join(samples, `${b}.json`)],
    { env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(run.status, 1, run.stderr.toString());
  const printed = run.stdout.toString();
  // The lines under "first divergence": `[-old-]{+new+}`, as git marks them.
  const section = printed.split('first divergence')[1]?.split(/\n\S/)[0] ?? '';
  const struck = [...section.matchAll(/\[-(.*?)-\]/g)].map((m) => m[1]);
  const added = [...section.matchAll(/\{\+(.*?)\+\}/g)].map((m) => m[1]);
  assert.ok(struck.length > 0 && added.length > 0, printed);
  const page = await open(browser, `${server.url}?sample=${a}&against=${b}`);
  await verdict(page);
  await comparison(page);
  const marked = await page.evaluate(() => ({
    struck: [...document.querySelectorAll('#compare-first-divergence del')].map((e) => e.textContent),
    added: [...document.querySelectorAll('#compare-first-divergence ins')].map((e) => e.textContent),
  }));
  assert.deepEqual(marked, { struck, added });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the samples menu opens a pair; B\'s entities show as B\'s; masking and the core map follow the URL; Swap', async () => {
  const page = await open(browser, server.url, { viewport: { width: 1440, height: 1000 } });
  await verdict(page);
  await page.locator('#samples').selectOption('pair:sendrecv-called-once.json');
  let text = await page.waitForFunction(() => {
    const line = document.querySelector('#compare-verdict');
    return line && /NCC_IXLV002/.test(line.textContent) && line.textContent;
  }, null, { timeout: 30000 }).then((h) => h.jsonValue());
  assert.match(text, /only B reports 1189/);
  // Core 1's sixth barrier, position by position: A's name against B's.
  const row = page.locator('#compare-barriers tr[data-core="1"][data-index="5"]');
  assert.match(await row.innerText(), /CoreBarrier-0_480[\s\S]*CoreBarrier-0_180/);
  // B's entity, in the details panel, marked as B's.
  await page.locator('#compare-only-b button.side-b').first().click();
  await page.locator('#details-side').waitFor();
  await page.waitForFunction(() => /CoreBarrier-0_180/.test(document.querySelector('#details')?.textContent ?? ''));
  assert.doesNotMatch(page.url(), /select=/, 'B\'s entity is not written as A\'s selection');
  // A's entity: no mark.
  await page.locator('#compare-first-divergence button.side-a').first().click();
  await page.locator('#details-side').waitFor({ state: 'detached' });
  // Numbers masked: the barrier names agree, and the URL says so.
  await page.locator('#compare-numbers').check();
  await page.locator('#compare-masked').waitFor();
  await page.waitForFunction(() => location.hash.includes('normalize=numbers'));
  assert.match(await page.locator('#compare-masked').innerText(), /numbers masked/);
  // The core map: A's core 0 against B's core 1.
  await page.locator('#compare-core-map select[data-core="0"]').selectOption('1');
  await page.waitForFunction(() => location.hash.includes('core-map=0:1'));
  await page.screenshot({ path: path.join(path.dirname(new URL(import.meta.url).pathname), '../../target/compare.png'), fullPage: false });
  // Swap: B is shown, A is compared against it.
  await page.locator('#against-swap').click();
  await page.waitForFunction(() => /sendrecv-called-twice/.test(document.querySelector('#load-panel')?.textContent ?? ''));
  text = await page.waitForFunction(() => {
    const line = document.querySelector('#compare-verdict');
    return line && /only A reports 1189/.test(line.textContent) && line.textContent;
  }, null, { timeout: 30000 }).then((h) => h.jsonValue());
  assert.match(text, /only A reports 1189/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('B opened from files; Share carries both sets and the link reopens the comparison', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-1core`);
  await verdict(page);
  await page.keyboard.press('9');
  await page.locator('#against-panel').waitFor();
  await page.setInputFiles('#against-file-input', [path.join(samples, 'matmul-2core.json')]);
  const text = await comparison(page);
  assert.match(text, /LNC 1.*LNC 2/);
  assert.match(await page.locator('#against-summary').innerText(), /1 file · 2 cores/);
  await page.keyboard.press('s');
  const field = page.locator('#share-url');
  await field.waitFor();
  const link = await field.inputValue();
  assert.match(link, /view=compare/);
  assert.match(link, /&data=v1\./);
  assert.match(link, /against-data=v1\./);
  await page.context().close();
  // Opened anywhere: the same comparison, and nothing requested beyond the page's files.
  const fresh = await browser.newContext();
  const requests = [];
  fresh.on('request', (r) => requests.push(r.url()));
  const other = await fresh.newPage();
  await other.goto(link);
  assert.equal(await comparison(other), text);
  assert.ok(requests.every((u) => u.startsWith(server.origin)), requests.join('\n'));
  assert.ok(!requests.some((u) => u.includes('/samples/matmul')), 'the sets came with the link');
  await fresh.close();
});

test('<birlink-view sample=… against=…> compares a pair in a host page', async () => {
  const host = await open(browser, `${server.origin}/host/compare.html`);
  const frame = host.frameLocator('birlink-view#pair iframe');
  await frame.locator('#compare-verdict').waitFor({ timeout: 30000 });
  assert.match(await frame.locator('#compare-verdict').innerText(), /NCC_IXLV002/);
  assert.deepEqual(host.errors, []);
  await host.context().close();
});

test('the kernel line behind a diagnostic, an instruction, a search and a first divergence', async () => {
  // Real-shaped dumps carry `debug.filename` and `lineno`; one has a renamed CoreBarrier
  // (1189, NCC_IXLV002), a diagnostic about an instruction.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-e2e-source-'));
  const set = (name, ...args) => {
    const out = path.join(dir, name);
    execFileSync(cli(), ['gen', '--shape', 'real', ...args, '--out', out], { stdio: 'ignore' });
    return fs.readdirSync(out).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(out, f));
  };
  const renamed = set('renamed', '--fault', '1189');
  const clean = set('clean');
  // What the CLI's report says the diagnostic's kernel line is.
  execFileSync(cli(), ['link', ...renamed, '--out', path.join(dir, 'out'), '--quiet'], { stdio: 'ignore' });
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
  const source = report.diagnostics.find((d) => d.code === '1189').source;
  assert.match(source, /\.py:\d+$/);

  const page = await open(browser, server.url, { viewport: { width: 1440, height: 1000 } });
  const first = await verdict(page);
  await page.setInputFiles('#file-input', renamed);
  await nextVerdict(page, first);
  await page.keyboard.press('6');
  await page.locator('#diagnostics-view').waitFor();
  assert.equal(await page.locator('.diag[data-code="1189"] .source').innerText(), `source: ${source}`);

  // Search by the kernel file: its instructions, and the details panel names the line.
  const file = source.slice(source.lastIndexOf('/') + 1, source.lastIndexOf(':'));
  await page.keyboard.press('/');
  await page.keyboard.type(`source:${file}`);
  const hits = page.locator('#search-results li[role=option]');
  await hits.first().waitFor();
  assert.ok(await hits.count() > 0);
  await page.keyboard.press('Enter');
  const shown = page.locator('#details p.source');
  await shown.waitFor();
  assert.match(await shown.innerText(), new RegExp(`^source: \\S*${file.replace('.', '\\.')}:\\d+$`));

  // Compared with the clean set, core 1 first parts at the renamed barrier, and its
  // kernel line is shown on both sides.
  await page.click('#tab-compare');
  await page.locator('#against-panel').waitFor();
  await page.setInputFiles('#against-file-input', clean);
  assert.match(await comparison(page), /^A and B differ: /);
  const places = page.locator('#compare-first-divergence li[data-core="1"] .source');
  await places.first().waitFor();
  for (const text of await places.allInnerTexts()) assert.match(text, /\.py:\d+$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  fs.rmSync(dir, { recursive: true, force: true });
});
