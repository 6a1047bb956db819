// The inspector as a user meets it: the default sample at start, views, a failing
// upload explained, keyboard, export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, open, verdict, nextVerdict, download, samples } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the default sample is linked at start as the compiler links it, each core\'s dispatcher drawn', async () => {
  const page = await open(browser, server.url);
  const text = await verdict(page);
  assert.match(text, /linked nc00\/sgLnk, nc01\/sgLnk/);
  assert.match(text, /0 error/);
  // The public MoE compile's shape: the modular flow, 2 cores × 3 subgraphs, 48 partitions.
  await page.waitForFunction(() => document.querySelector('#flow-grid')?.dataset.flow === 'modular', null, { timeout: 60000 });
  assert.equal(await page.locator('#samples').inputValue(), 'moe-2core.json');
  assert.match(await page.locator('#grid-table caption').innerText(), /2 core\(s\) × 3 subgraph\(s\)/);
  assert.equal(await page.locator('#grid-table tbody tr').count(), 2);
  await page.click('#tab-call-graph');
  const svg = page.locator('#call-graph-svg');
  await svg.waitFor();
  await svg.locator('.node.call-node').first().waitFor();
  assert.equal(await svg.locator('.node.call-node[data-core="0"]').count(), 48, 'core 0 calls each of its 48 partitions');
  assert.equal(await svg.locator('.node.call-node[data-core="1"]').count(), 48, 'and so does core 1');
  assert.deepEqual(page.errors, []);
  // A new user's console is clean: no error, and no warning either (the wasm preloads
  // once carried an `integrity` Chromium ignores, and said so at every load).
  assert.deepEqual(page.warnings, []);
});

test('the matmul sample in the seeds\' reading: its one dispatcher is drawn', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  const text = await verdict(page);
  assert.match(text, /linked nc00\/sgLnk/);
  assert.match(text, /0 error/);
  await page.click('#tab-call-graph');
  const svg = page.locator('#call-graph-svg');
  await svg.waitFor();
  const labels = await svg.locator('.call-label').allTextContents();
  assert.deepEqual(labels, ['call_def_0_instance_0', 'call_def_1_instance_0']);
  // The edges are drawn in the task after the nodes.
  await svg.locator('.alias path').first().waitFor();
  assert.equal(await svg.locator('.alias path').count(), 2, 'two alias edges');
  await page.click('#toggle-aliases');
  assert.equal(await svg.locator('.alias path').count(), 0, 'alias edges toggle off');
  const cards = await page.locator('#load-panel .card-module .module').allInnerTexts();
  assert.deepEqual(cards, ['nc00', 'nc01']);
  assert.deepEqual(page.errors, []);
});

test('every view renders and the keyboard switches between them', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('3');
  await page.locator('#barriers-view').waitFor();
  assert.match(await page.locator('#barrier-collisions').innerText(), /no collision/);
  await page.keyboard.press('4');
  await page.locator('#semaphores-view').waitFor();
  assert.match(await page.locator('#lockstep').innerText(), /same number/);
  // The relocations are drawn in the task after the view's first sections.
  await page.locator('#relocations').waitFor();
  assert.equal(await page.locator('#relocations tbody tr').count(), 4);
  await page.keyboard.press('5');
  await page.locator('#address-map').waitFor();
  assert.equal(await page.locator('#address-map tbody tr').count(), 2);
  await page.keyboard.press('1');
  await page.locator('#pipeline-view').waitFor();
  const before = await page.locator('#pipeline-view h2').innerText();
  await page.keyboard.press('j');
  await page.waitForFunction((b) => document.querySelector('#pipeline-view h2').innerText !== b, before);
  await page.keyboard.press('6');
  await page.locator('#diagnostics-view').waitFor();
  assert.deepEqual(page.errors, []);
});

test('a failing upload opens on its diagnostic and shows the failing input', async () => {
  const page = await open(browser, server.url);
  const first = await verdict(page);
  await page.setInputFiles('#file-input', path.join(samples, 'error-1514.json'));
  const text = await nextVerdict(page, first);
  assert.match(text, /link failed in vnc_remote_addr_map/);
  await page.locator('#diagnostics-view').waitFor();
  const selected = page.locator('.diag.selected');
  assert.equal(await selected.getAttribute('data-code'), '1514');
  assert.match(await selected.innerText(), /could not find memory location `c_partial_0_remote_1` on core 0/);
  assert.match(await selected.innerText(), /closest names:\s*c_partial_0/);
  // The details panel shows the failing place in the input.
  await page.locator('#details-original').waitFor();
  assert.match(await page.locator('#details-original').innerText(), /c_partial_0_remote_1/);
  // The uploaded set replaced the default sample.
  assert.deepEqual(await page.locator('#load-panel .card .file').allInnerTexts(), ['error-1514.json']);
  // The failing memory location is marked in the call graph.
  await page.click('#tab-call-graph');
  await page.locator('.node.memloc.failing').first().waitFor();
  assert.deepEqual(page.errors, []);
});

test('search finds names across cores and selecting one shows its JSON', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('/');
  await page.keyboard.type('c_partial_1');
  const results = page.locator('#search-results li[role=option]');
  await results.first().waitFor();
  const cores = await page.locator('#search-results .core').allInnerTexts();
  assert.ok(cores.includes('core 0') && cores.includes('core 1'), `results on both cores: ${cores}`);
  await page.keyboard.press('Enter');
  await page.locator('#details-linked').waitFor();
  assert.match(await page.locator('#details-linked').innerText(), /"name": "c_partial_1"/);
});

test('report.json and linked.json export', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  const report = JSON.parse((await download(page, '#export-report')).toString('utf8'));
  assert.equal(report.tool.name, 'birlink');
  assert.equal(report.dispatcher.length, 2);
  const linked = JSON.parse((await download(page, '#export-linked')).toString('utf8'));
  assert.equal(linked.name, 'nc00/sgLnk');
  // The SVG, asked for at once (the call graph not yet drawn, or drawn in stages): the
  // whole graph, from the report, and well-formed XML.
  const svg = (await download(page, '#export-svg')).toString('utf8');
  assert.match(svg, /^<\?xml/);
  assert.match(svg, /call_def_1_instance_0/);
  assert.doesNotMatch(svg, /&nbsp;/);
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      aliases: doc.querySelectorAll('g.alias > path').length,
      memlocs: [...doc.querySelectorAll('g.memloc')].map((g) => g.getAttribute('data-memloc')),
      lanes: doc.querySelectorAll('g.lane-group').length,
    };
  }, svg);
  assert.equal(parsed.error, null, 'the export is XML');
  assert.equal(parsed.aliases, report.aliases.length, 'every alias edge');
  assert.equal(parsed.lanes, report.dispatcher.length, 'one lane per core');
  for (const alias of report.aliases) {
    assert.ok(parsed.memlocs.includes(alias.consumer.memloc) && parsed.memlocs.includes(alias.producer.memloc),
      `both ends of ${alias.consumer.memloc} → ${alias.producer.memloc}`);
  }
});

test('?sample= opens a sample by name, with or without .json', async () => {
  for (const name of ['error-1512', 'error-1512.json']) {
    const page = await open(browser, `${server.url}?sample=${name}`);
    const text = await verdict(page);
    assert.match(text, /link failed in vnc_link/, name);
    assert.equal(await page.locator('.diag.selected').getAttribute('data-code'), '1512');
    // The lockstep table names each core's count.
    assert.match(await page.locator('.diag.selected').innerText(), /core 0/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a pipeline step shows its edits with the changed words marked', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.locator('button.step', { hasText: 'renumber_barriers' }).click();
  await page.locator('#step-edits').waitFor();
  assert.match(await page.locator('#pipeline-view h2').innerText(), /bir_linker › renumber_barriers/);
  assert.ok(await page.locator('#step-edits del').count() > 0, 'old ids marked');
  assert.ok(await page.locator('#step-edits ins').count() > 0, 'new ids marked');
  assert.deepEqual(page.errors, []);
});

test('the samples menu shows the sample that is open, and nothing once the user\'s own files are', async () => {
  const page = await open(browser, `${server.url}?sample=error-1512`);
  await verdict(page);
  await page.locator('#samples option[value="error-1512.json"]').waitFor({ state: 'attached' });
  assert.equal(await page.locator('#samples').inputValue(), 'error-1512.json');
  const before = await page.locator('#verdict').innerText();
  await page.selectOption('#samples', 'ring-4core.json');
  await nextVerdict(page, before);
  assert.equal(await page.locator('#samples').inputValue(), 'ring-4core.json', 'the menu keeps the chosen sample');
  const ring = await page.locator('#verdict').innerText();
  await page.setInputFiles('#file-input', path.join(samples, 'matmul-2core.json'));
  await nextVerdict(page, ring);
  assert.equal(await page.locator('#samples').inputValue(), '', 'an upload is no sample');
  assert.deepEqual(page.errors, []);
});

test('the details panel settles: a diagnostic without a place, a DMA block and its queue', async () => {
  const page = await open(browser, `${server.url}?sample=error-1512`);
  await verdict(page);
  await page.locator('#details .missing').waitFor();
  assert.match(await page.locator('#details').innerText(), /1512 is about the link set as a whole/);
  assert.doesNotMatch(await page.locator('#details').innerText(), /loading/);
  // A DMA block of a queue instance, from the matmul sample's relocations.
  await page.goto(`${server.url}?sample=matmul-2core.json`);
  await verdict(page);
  await page.keyboard.press('4');
  await page.locator('#relocations button.entity').first().click();
  await page.locator('#details-linked').waitFor();
  await page.locator('#details button', { hasText: 'whole text of `queue ' }).click();
  await page.locator('#details-unit').waitFor();
  assert.match(await page.locator('#details-unit').innerText(), /^queue /);
  assert.doesNotMatch(await page.locator('#details').innerText(), /loading/);
  assert.deepEqual(page.errors, []);
});
