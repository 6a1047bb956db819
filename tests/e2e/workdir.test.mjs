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
import { serve, launch, open, verdict, cli } from './harness.mjs';

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
  const page = await open(browser, server.url);
  await verdict(page);
  await page.setInputFiles('#folder-input', work);
  await page.locator('#workdir').waitFor();
  assert.match(await verdict(page), /linked nc00\/sgLnk.*0 errors, 0 warnings/s);
  const panel = page.locator('#load-panel');
  // Two cards, the two dumps; no BL0005 for the rest.
  assert.equal(await panel.locator('.card').count(), 2);
  const cards = await panel.locator('.card .file').allInnerTexts();
  assert.deepEqual(cards, ['work/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json',
    'work/nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json']);
  const summary = await page.locator('#workdir').innerText();
  assert.match(summary, /subgraph sg00/);
  assert.match(summary, /core 0\s+bir_debug\.12\.after-lower_sync\.before-lower_act\.penguin\.json\s+— after `lower_sync`, the link's input/);
  assert.match(summary, /set aside 13 files: 2 dumps of other passes, 2 tensor maps, 6 backend artifacts, 2 files of an earlier link, 1 compile command/, summary);
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
