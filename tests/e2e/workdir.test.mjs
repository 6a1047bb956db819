// The compiler's work directory picked as a folder (`#folder-input`, as the folder
// button gives it): the page links each core's `after-lower_sync` dump with no
// diagnostic for the backend's other files, says what it took and set aside, and links
// another dumped pass when asked; a core without the pass is named with the flags that
// would dump it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, cli, download } from './harness.mjs';

let server;
let browser;
let work;

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'birlink-workdir-'));
  execFileSync(cli(), ['gen', '--cores', '2', '--out', path.join(dir, 'gen')], { stdio: 'ignore' });
  work = path.join(dir, 'work');
  fs.mkdirSync(work);
  fs.writeFileSync(path.join(work, 'command.txt'), 'neuronx-cc compile model.hlo --output model.neff\n');
  for (const core of ['nc00', 'nc01']) {
    const sg = path.join(work, core, 'sg00');
    fs.mkdirSync(path.join(sg, 'sgLnk'), { recursive: true });
    const module = fs.readFileSync(path.join(dir, 'gen', `${core}.json`));
    fs.writeFileSync(path.join(sg, 'bir_debug.11.after-lower_dma.before-lower_sync.penguin.json'), module);
    fs.writeFileSync(path.join(sg, 'bir_debug.12.after-lower_sync.before-lower_act.penguin.json'), module);
    for (const other of ['def.json', 'tensor_map.json', 'PE.json', 'kelf-0.json', 'sgLnk/def.json']) {
      fs.writeFileSync(path.join(sg, other), '{"not": "bir"}');
    }
    fs.writeFileSync(path.join(sg, 'PE.bin'), Buffer.from([0, 1, 2]));
  }
  server = await serve();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(path.dirname(work), { recursive: true, force: true }); });

test('a work directory links its lower_sync dumps, says what it set aside, and links another pass on request', async () => {
  // These directories are laid out for the seeds' reading (its link directory and
  // merged tensor maps): asked for in the link, as a user would.
  const page = await open(browser, `${server.url}?sample=matmul-2core.json&flow=seeds`);
  await verdict(page);
  await page.setInputFiles('#folder-input', work);
  await page.locator('#workdir').waitFor();
  // The placeholder tensor maps are read by the link's last step, and said unreadable.
  assert.match(await verdict(page), /linked nc00\/sgLnk.*0 errors, 2 warnings/s);
  const panel = page.locator('#load-panel');
  // Two cards, the two dumps; no BL0005 for the rest.
  assert.equal(await panel.locator('.card').count(), 2);
  const cards = await panel.locator('.card .file').allInnerTexts();
  assert.deepEqual(cards, ['work/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json',
    'work/nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json']);
  const summary = await page.locator('#workdir').innerText();
  assert.match(summary, /subgraph sg00/);
  assert.match(summary, /core 0\s+bir_debug\.12\.after-lower_sync\.before-lower_act\.penguin\.json\s+— after `lower_sync`, the link's input/);
  assert.match(summary, /set aside 15 files: 2 dumps of other passes, 2 tensor maps, 8 backend artifacts, 2 files of an earlier link, 1 compile command/, summary);
  assert.equal(await page.locator('#tab-diagnostics .count, #tab-diagnostics').first().innerText().then((t) => /BL0005/.test(t)), false);
  assert.deepEqual(await page.locator('#after-pass option').allInnerTexts(), ['lower_dma', 'lower_sync']);
  assert.equal(await page.locator('#after-pass').inputValue(), 'lower_sync');
  await page.screenshot({ path: path.join(path.dirname(path.dirname(path.dirname(new URL(import.meta.url).pathname))), 'target', 'workdir.png') });

  // Another pass: its dumps are linked instead.
  await page.selectOption('#after-pass', 'lower_dma');
  await page.waitForFunction(() => document.querySelector('#load-panel .card .file')?.textContent.includes('after-lower_dma'));
  assert.match(await verdict(page), /linked nc00\/sgLnk/);
  assert.match(await page.locator('#workdir').innerText(), /after `lower_dma`, as asked/);

  // One core's dump gone: that core is named, with the flags that would dump it.
  await page.locator('button[aria-label^="remove work/nc01"]').click();
  await page.locator('#workdir .missing').waitFor();
  assert.match(await page.locator('#workdir .missing').innerText(),
    /core 1 has no dump after `lower_dma`: re-run the compile \(its command is in `work\/command\.txt`\) with --internal-print-after=lower_dma/);
  assert.match(await verdict(page), /failed/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

const samples = path.join(path.dirname(path.dirname(path.dirname(new URL(import.meta.url).pathname))), 'www', 'samples');

test('a whole work directory dropped: the sgLnk view shows the link directory and the merged tensor map', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core.json&flow=seeds`);
  await verdict(page);
  await page.setInputFiles('#folder-input', path.join(samples, 'workdir-ilnk020'));
  await page.locator('#workdir').waitFor();
  await page.waitForFunction(() => document.querySelector('#verdict')?.innerText.includes('1 warning'));
  assert.match(await verdict(page), /0 errors, 1 warning, 2 notes/);
  // The compile command, as text, and the flags that dump the link's input.
  await page.locator('#workdir-command summary').click();
  assert.match(await page.locator('#workdir-command pre').innerText(), /^neuronx-cc compile .*--lnc 2/);
  assert.match(await page.locator('#workdir-command').innerText(), /--internal-print-after=lower_sync/);

  await page.locator('#tab-link-dir').click();
  await page.locator('#link-dir-tree').waitFor();
  assert.match(await page.locator('#link-dir-summary').innerText(), /8 entries: 6 symbolic links, 1 copy, 1 written by the link; 20 files stay/);
  const tree = await page.locator('#link-dir-tree').textContent();
  for (const name of ['custom_op/', 'libtopk.so', 'cpu_node_0/', 'host_graph.json', 'weights_nc00.npy', 'weights_nc01.npy', 'tensor-map.json']) {
    assert.ok(tree.includes(name), `${name} in the tree: ${tree}`);
  }
  assert.match(await page.locator('.entry[data-name="shared_constants.npy"]').innerText(), /core 0's .*nc00\/sg00\/shared_constants\.npy.*the same bytes on core 1/s);
  assert.match(await page.locator('.entry[data-name="cpu_node_0/host_graph.json"]').innerText(), /copy of core 0's/);

  assert.match(await page.locator('#tensor-map-summary').innerText(), /9 entries from 2 cores: 4 bound, 1 naming no tensor, 4 left out as internal, 0 in conflict/);
  const stale = page.locator('#tensor-map-entries tr', { hasText: 'layer_13_attn_out' });
  assert.match(await stale.innerText(), /no such tensor \(BL0310\)/);
  const merged = JSON.parse((await download(page, '#export-tensor-map')).toString('utf8'));
  assert.deepEqual(Object.keys(merged), ['nc00', 'nc01']);
  assert.ok('layer_13_attn_out' in merged.nc01);
  await page.screenshot({ path: path.join(path.dirname(samples), '..', 'target', 'sglnk.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a work-directory sample by its link: the collision is marked and the view named', async () => {
  const page = await open(browser, `${server.url}?sample=workdir-collision#view=linkdir`);
  assert.match(await verdict(page), /0 errors, 1 warning/);
  await page.locator('#link-dir-tree').waitFor();
  assert.equal(await page.locator('#samples').inputValue(), 'workdir-collision');
  const entry = page.locator('.entry.collision');
  assert.equal(await entry.count(), 1);
  assert.match(await entry.innerText(), /shared_constants\.npy.*BL0315: core 1 offers other bytes/s);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a link set that is not a work directory has no sgLnk tab, and the view says why when named', async () => {
  const page = await open(browser, `${server.url}?sample=matmul-2core#view=linkdir`);
  await verdict(page);
  assert.match(await page.locator('#link-dir-view').innerText(), /not a compiler work directory/);
  await page.locator('#tab-pipeline').click();
  assert.equal(await page.locator('#tab-link-dir').count(), 0);
  await page.context().close();
});

test('a modular work directory in one run: each core\'s sgLnk/, its subgraphs\' maps, the VNC passes\' own input, and the compiler\'s own result beside birlink\'s', async () => {
  const page = await open(browser, `${server.url}?sample=workdir-moe-fidelity`);
  assert.match(await verdict(page), /0 errors, 0 warnings/);
  await page.waitForFunction(() => document.querySelector('#flow-grid')?.dataset.flow === 'modular', null, { timeout: 60000 });
  // The fidelity check: three of the compiler's dumps agree, core 1's after vnc_link parts.
  await page.locator('#fidelity').waitFor();
  assert.equal(await page.locator('#fidelity .fidelity-row').count(), 4);
  assert.equal(await page.locator('#fidelity .fidelity-row.agree').count(), 3);
  const parted = page.locator('#fidelity .fidelity-row.differ');
  assert.equal(await parted.count(), 1);
  assert.deepEqual([await parted.getAttribute('data-pass'), await parted.getAttribute('data-core')], ['vnc_link', '1']);
  assert.match(await parted.innerText(), /parts from `[^`]+` at line \d+ \(function sg0000; 1 of \d+ lines differ\): birlink `.*addr=2097152.*` · compiler `.*addr=2097153/);
  assert.match(await page.locator('#workdir').innerText(), /the latest pass dumped before bir_linker: its input/);
  // The same run's linked modules after coloring_allocator_reg are the VNC passes' input.
  assert.match(await page.locator('#vnc-input').innerText(), /The VNC passes' input: the compiler's linked modules \(nc00\/sgLnk, nc01\/sgLnk\) as it dumped them after `coloring_allocator_reg`/);
  assert.match(await page.locator('#vnc-input').getAttribute('title'), /^workdir-moe-fidelity\/nc00\/sgLnk\/bir_debug\.88\.after-coloring_allocator_reg/);

  // Each core's link directory, its subgraphs' weights in sg00/, their maps merged per core.
  await page.locator('#tab-link-dir').click();
  await page.locator('#link-dir-tree').waitFor();
  assert.match(await page.locator('#link-dir-title').innerText(), /Each core's ncCC\/sgLnk\//);
  assert.match(await page.locator('#link-dir-summary').innerText(), /14 entries: 12 symbolic links, 0 copies, 2 written by the link/);
  const tree = await page.locator('#link-dir-tree').textContent();
  for (const name of ['nc00/', 'nc01/', 'sgLnk/', 'sg00/', 'weights_sg02.npy', 'libtopk_custom_op.so', 'debug_info_nc01.json', 'tensor_map.json']) {
    assert.ok(tree.includes(name), `${name} in the tree: ${tree}`);
  }
  assert.match(await page.locator('.entry[data-name="nc00/sgLnk/sg00/rope_table.npy"]').innerText(), /the same bytes in subgraph 1, 2/);
  assert.match(await page.locator('#tensor-map-summary').innerText(), /entries from 6 subgraphs: \d+ bound, 0 naming no tensor/);
  const core1 = JSON.parse((await download(page, '#export-tensor-map-1')).toString('utf8'));
  assert.deepEqual(Object.keys(core1), ['sg0000', 'sg0001', 'sg0002']);
  // bir_linker's log, as the compiler words it.
  const log = (await download(page, '#export-log')).toString('utf8');
  assert.match(log, /^\(nc01\/sgLnk\) \[BirLinker\]: Writing updated tensor_map workdir-moe-fidelity\/nc01\/sgLnk\/sg00\/tensor_map\.json$/m);
  await page.screenshot({ path: path.join(path.dirname(samples), '..', 'target', 'sglnk-modular.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
