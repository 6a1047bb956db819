// Every view and every embed message in every flow (issue 39 §1b): a host page loads a
// link set of each flow — the modular flow (moe-2core), the flat flow (flat-2core, the
// one most public compiles take), the seeds' reading (matmul-2core) — and `show`s each
// view in turn. Each view draws what is true of that flow and hides only what did not
// happen: the aligned CoreBarriers (the answer to NCC_IXLV002) in every flow, the
// renumbering only where bir_linker ran; no view says a pass "did not run" when the flow
// never runs it. A click on an entity is told to the host (`selected`) in every flow, and
// `show` selects it back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, samples } from './harness.mjs';

let birlink;
let host;
let browser;

before(async () => {
  birlink = await serve();
  const pages = { '/favicon.ico': { body: '', type: 'image/x-icon' } };
  host = await serve(undefined, { prefix: '/nothing/', pages });
  pages['/host.html'] = `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="frame" src="${birlink.url}?embed=1&origin=${encodeURIComponent(host.origin)}" style="width:1100px;height:800px"></iframe>
<script>
  window.received = [];
  const frame = document.getElementById('frame');
  addEventListener('message', (e) => { if (e.source === frame.contentWindow) received.push(e.data); });
  window.send = (message) => frame.contentWindow.postMessage(message, ${JSON.stringify(birlink.origin)});
</script>`;
  browser = await launch();
});
after(async () => { await browser?.close(); await host?.close(); await birlink?.close(); });

/** Posts `message` and waits for `count` answers with its id. */
async function ask(tab, message, count = 1) {
  await tab.evaluate((m) => window.send(m), message);
  await tab.waitForFunction(([id, n]) => window.received.filter((r) => r.id === id).length >= n, [message.id, count], { timeout: 60000 });
  return tab.evaluate((id) => window.received.filter((r) => r.id === id), message.id);
}

/** What each view must show, by flow: a selector that is there and text it must (or
 *  must not) hold. */
const VIEWS = {
  pipeline: () => ({ selector: '#pipeline-view' }),
  callgraph: () => ({ selector: '#call-graph svg, #call-graph canvas', not: /did not run/ }),
  barriers: (flow) => ({
    selector: '#barriers-view #barrier-alignment',
    text: flow === 'flat' ? /The flat flow: the compiler runs no bir_linker/ : /renumbered|no collision/,
    not: flow === 'flat' ? /bir_linker did not run/ : undefined,
  }),
  semaphores: () => ({ selector: '#semaphores-view #lockstep' }),
  addresses: () => ({ selector: '#addresses-view', not: /did not run/ }),
  diagnostics: () => ({ selector: '#diagnostics-view' }),
  // The sync check reads the compiler's per-core modules: the seeds' reading says why not.
  sync: (flow) => (flow === 'seeds'
    ? { selector: '.sync-skipped', text: /did not run: the seeds' reading/ }
    : { selector: '#sync-view #sync-headline', text: /completes \(exact\)/ }),
  linkdir: (flow) => ({
    selector: '#link-dir-view',
    text: flow === 'flat' ? /The flat flow: the compiler runs no bir_linker/ : /not a compiler work directory/,
  }),
};

const FLOWS = [
  { flow: 'modular', file: 'moe-2core.json' },
  { flow: 'flat', file: 'flat-2core.json' },
  { flow: 'seeds', file: 'matmul-2core.json' },
];

for (const { flow, file } of FLOWS) {
  test(`every view and every embed message in the ${flow} flow`, async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await tab.goto(`${host.origin}/host.html`);
    await tab.waitForFunction(() => window.received.some((r) => r.birlink === 'ready'), null, { timeout: 30000 });
    const frame = tab.frameLocator('#frame');
    const data = fs.readFileSync(path.join(samples, file), 'utf8');
    const [, linked] = await ask(tab, { birlink: 'load', id: `load-${flow}`, files: [{ name: file, data }] }, 2);
    assert.equal(linked.birlink, 'linked');
    assert.equal(linked.ok, true, `${file} links cleanly: ${JSON.stringify(linked)}`);

    for (const [view, expect] of Object.entries(VIEWS)) {
      const id = `show-${flow}-${view}`;
      assert.deepEqual(await ask(tab, { birlink: 'show', id, view }), [{ birlink: 'ack', id }], `${flow}: show ${view}`);
      const { selector, text, not } = expect(flow);
      const shown = frame.locator(selector).first();
      await shown.waitFor({ state: 'attached', timeout: 20000 });
      const root = frame.locator(selector.split(' ')[0].split(',')[0]).first();
      const said = await root.innerText();
      if (text) assert.match(said, text, `${flow}: ${view} says ${said.slice(0, 300)}`);
      if (not) assert.doesNotMatch(said, not, `${flow}: ${view}`);
      const [state] = await ask(tab, { birlink: 'getState', id: `state-${flow}-${view}` });
      assert.equal(state.view, view, `${flow}: getState after show ${view}`);
    }

    // The aligned barriers are drawn in every flow, their cells entities: a click is told
    // to the host as `selected`, and `show` selects the same entity back.
    assert.deepEqual(await ask(tab, { birlink: 'show', id: `bar-${flow}`, view: 'barriers' }), [{ birlink: 'ack', id: `bar-${flow}` }]);
    const cell = frame.locator('#barriers-view .aligned-cell button.entity').first();
    await cell.click();
    await tab.waitForFunction(() => window.received.some((r) => r.birlink === 'selected'), null, { timeout: 20000 });
    const selected = await tab.evaluate(() => window.received.filter((r) => r.birlink === 'selected').at(-1));
    assert.match(selected.select, /^instruction:/, `${flow}: ${JSON.stringify(selected)}`);
    const again = `again-${flow}`;
    assert.deepEqual(await ask(tab, { birlink: 'show', id: again, view: 'pipeline', select: selected.select }), [{ birlink: 'ack', id: again }]);
    const [state] = await ask(tab, { birlink: 'getState', id: `state-${flow}-selected` });
    assert.equal(state.select, selected.select, `${flow}: the selection shown back`);
    assert.deepEqual(errors, [], `${flow}: no page error`);
    await context.close();
  });
}
