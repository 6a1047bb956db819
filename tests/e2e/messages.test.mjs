// The message protocol (embed spec §4) from a host page on another origin: every
// request and every error code, answers in order, and the trust rule — a host the
// page's link does not list hears nothing at all, not even `ready`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, samples } from './harness.mjs';

let birlink;
let host;
let browser;

/** A host page framing `src`; `window.send(message, transfer)` posts to the frame,
 *  `window.received` collects what the frame posts back. */
function hostPage(src, target) {
  return `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="frame" src="${src}" style="width:900px;height:600px"></iframe>
<script>
  window.received = [];
  const frame = document.getElementById('frame');
  addEventListener('message', (e) => { if (e.source === frame.contentWindow) received.push({ origin: e.origin, data: e.data }); });
  window.send = (message, transfer) => frame.contentWindow.postMessage(message, ${JSON.stringify(target)}, transfer || []);
</script>`;
}

before(async () => {
  birlink = await serve();
  // The host's pages name its own origin, known once it listens: filled in after.
  const pages = { '/favicon.ico': { body: '', type: 'image/x-icon' } };
  host = await serve(undefined, { prefix: '/nothing/', pages });
  pages['/host.html'] = hostPage(`${birlink.url}?embed=1&origin=${encodeURIComponent(host.origin)}`, birlink.origin);
  pages['/stranger.html'] = hostPage(`${birlink.url}?embed=1`, '*');
  browser = await launch();
});
after(async () => { await browser?.close(); await host?.close(); await birlink?.close(); });

async function hostAt(page) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = [];
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(`${host.origin}/${page}`);
  tab.errors = errors;
  return tab;
}

/** Posts `message` and waits for `count` answers with its id. */
async function ask(tab, message, count = 1, transfer) {
  await tab.evaluate(([m, t]) => {
    if (t === 'buffer') window.send(m, [m.files[0].data]);
    else window.send(m);
  }, [message, transfer]);
  await tab.waitForFunction(([id, n]) => window.received.filter((r) => r.data.id === id).length >= n, [message.id, count], { timeout: 60000 });
  return tab.evaluate((id) => window.received.filter((r) => r.data.id === id).map((r) => r.data), message.id);
}

const sample = (name) => fs.readFileSync(path.join(samples, name), 'utf8');

test('a listed host drives the page through every request', async () => {
  const tab = await hostAt('host.html');
  await tab.waitForFunction(() => window.received.some((r) => r.data.birlink === 'ready'), null, { timeout: 30000 });
  const ready = await tab.evaluate(() => window.received.find((r) => r.data.birlink === 'ready'));
  assert.equal(ready.origin, birlink.origin);
  assert.equal(ready.data.version, 1);
  assert.ok(ready.data.capabilities.includes('load'));

  assert.deepEqual(await ask(tab, { birlink: 'ping', id: 1 }), [{ birlink: 'ack', id: 1 }]);

  // load: text data, then linked with the run's verdict.
  const [ack, linked] = await ask(tab, { birlink: 'load', id: 'a', files: [{ name: 'error-1514.json', data: sample('error-1514.json') }], view: 'callgraph' }, 2);
  assert.deepEqual(ack, { birlink: 'ack', id: 'a' });
  assert.equal(linked.birlink, 'linked');
  assert.equal(linked.ok, false);
  assert.equal(linked.failed_pass, 'vnc_remote_addr_map');
  assert.equal(linked.errors, 1);
  assert.ok(linked.codes.includes('1514'));
  // Binary data of each kind.
  for (const kind of ['ArrayBuffer', 'Uint8Array', 'Blob']) {
    const id = `b-${kind}`;
    await tab.evaluate(([text, kind, id]) => {
      const bytes = new TextEncoder().encode(text);
      const data = kind === 'ArrayBuffer' ? bytes.buffer : kind === 'Blob' ? new Blob([bytes]) : bytes;
      window.send({ birlink: 'load', id, files: [{ name: 'm.json', data }] });
    }, [sample('matmul-2core.json'), kind, id]);
    await tab.waitForFunction((id) => window.received.some((r) => r.data.id === id && r.data.birlink === 'linked'), id, { timeout: 60000 });
    const done = await tab.evaluate((id) => window.received.find((r) => r.data.id === id && r.data.birlink === 'linked').data, id);
    assert.equal(done.ok, true, kind);
  }
  // show, with a selection found, and getState says so.
  assert.deepEqual(await ask(tab, { birlink: 'show', id: 'c', view: 'barriers', select: 'function:1:nc01' }), [{ birlink: 'ack', id: 'c' }]);
  const [state] = await ask(tab, { birlink: 'getState', id: 'd' });
  assert.equal(state.birlink, 'state');
  assert.equal(state.view, 'barriers');
  assert.equal(state.select, 'function:1:nc01');
  assert.ok(state.url.startsWith(birlink.url), state.url);
  assert.doesNotMatch(state.url, /embed=1|origin=/, 'the state\'s url opens the full page');
  assert.match(state.url, /view=barriers/);
  assert.match(state.url, /data=v1\./, 'the link set came by message: the url carries it');
  // The full page opened from that url shows the same.
  const full = await open(browser, state.url);
  await full.locator('#details .key code').waitFor();
  assert.equal(await full.locator('#details .key code').innerText(), 'function:1:nc01');
  await full.context().close();
  assert.deepEqual(tab.errors, []);
});

test('every error code, with what is wrong named', async () => {
  const tab = await hostAt('host.html');
  await tab.waitForFunction(() => window.received.some((r) => r.data.birlink === 'ready'), null, { timeout: 30000 });
  const cases = [
    [{ birlink: 'zoom', id: 1 }, 'unknown-type', /`zoom` is not a request/],
    [{ birlink: 'show', id: 2, view: 'pipeline', vew: 'x' }, 'unknown-field', /no field `vew`/],
    [{ birlink: 'load', id: 3, files: [{ name: 'a.json', data: '{}', size: 2 }] }, 'unknown-field', /`files\[0\]` has no field `size`/],
    [{ birlink: 'show', id: 4 }, 'bad-request', /needs a `view`/],
    [{ birlink: 'show', id: 5, view: 3 }, 'bad-request', /`view` must be a string/],
    [{ birlink: 'load', id: 6, files: [{ name: 'a.json', data: 42 }] }, 'bad-request', /`files\[0\].data` must be/],
    [{ birlink: 'show', id: 7, view: 'graph' }, 'not-found', /no view `graph`/],
    [{ birlink: 'show', id: 8, view: 'pipeline', select: 'memloc:0:nc00/nowhere' }, 'not-found', /not in the linked module/],
    [{ birlink: 'show', id: 9, view: 'pipeline', step: 'bir_linker/nothing' }, 'not-found', /no such step/],
    // A plain object dressed as the page's own stand-in for binary data.
    [{ birlink: 'load', id: 10, files: [{ name: 'a.json', data: { $bytes: 0, size: 1 } }] }, 'bad-request', /`files\[0\].data` must be/],
    [{ birlink: 'load', id: 11, files: [{ name: 'a.json', data: '{}' }], lnc: 9007199254740993 }, 'bad-request', /from 1 to 64/],
  ];
  // A run to show things in.
  await ask(tab, { birlink: 'load', id: 'run', files: [{ name: 'm.json', data: sample('matmul-2core.json') }] }, 2);
  for (const [message, code, says] of cases) {
    const [answer] = await ask(tab, message);
    assert.equal(answer.birlink, 'error', JSON.stringify(message));
    assert.equal(answer.code, code, JSON.stringify(message));
    assert.match(answer.message, says);
  }
  // Two shows with a selection, back to back: each is answered once (the first `ack`
  // when found in time, else `superseded`), and the second is acknowledged.
  await tab.evaluate(() => {
    window.send({ birlink: 'show', id: 's1', view: 'barriers', select: 'function:1:nc01' });
    window.send({ birlink: 'show', id: 's2', view: 'barriers', select: 'function:0:nc00' });
  });
  await tab.waitForFunction(() => ['s1', 's2'].every((id) => window.received.some((r) => r.data.id === id)), null, { timeout: 30000 });
  await tab.waitForTimeout(300);
  const answers = await tab.evaluate(() => window.received.filter((r) => ['s1', 's2'].includes(r.data.id)).map((r) => r.data));
  assert.equal(answers.length, 2, JSON.stringify(answers));
  assert.ok(answers.some((a) => a.id === 's2' && a.birlink === 'ack'), JSON.stringify(answers));
  const first = answers.find((a) => a.id === 's1');
  assert.ok(first.birlink === 'ack' || first.code === 'superseded', JSON.stringify(first));
  // No id: still an answer, with a null id.
  await tab.evaluate(() => window.send({ birlink: 'ping' }));
  await tab.waitForFunction(() => window.received.some((r) => r.data.id === null && r.data.code === 'bad-request'));
  // Too large: three transferred buffers of 1.3 GB, 3.9 GB in all, above the 3.6 GB a
  // host may send (never copied, never read).
  const [tooLarge] = await tab.evaluate(async () => {
    const before = window.received.length;
    const buffers = [0, 1, 2].map(() => new ArrayBuffer(1_300_000_000));
    const files = buffers.map((data, i) => ({ name: `${i}.json`, data }));
    window.send({ birlink: 'load', id: 'big', files }, buffers);
    while (window.received.length === before) await new Promise((r) => setTimeout(r, 50));
    return window.received.slice(before).map((r) => r.data);
  });
  assert.equal(tooLarge.code, 'too-large');
  // Other traffic is left alone.
  await tab.evaluate(() => window.send('PING'));
  assert.deepEqual(tab.errors, []);
});

test('a host the link does not list gets no answer at all', async () => {
  const tab = await hostAt('stranger.html');
  const warnings = [];
  tab.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await tab.waitForTimeout(2500);
  await tab.evaluate(() => {
    window.send({ birlink: 'ping', id: 1 });
    window.send({ birlink: 'load', id: 2, files: [{ name: 'x.json', data: '{}' }] });
    window.send({ birlink: 'getState', id: 3 });
  });
  await tab.waitForTimeout(2000);
  assert.deepEqual(await tab.evaluate(() => window.received), [], 'not even `ready`');
  assert.ok(warnings.some((w) => /is ignored/.test(w)), `a console notice: ${warnings}`);
});

test('a host loads two link sets at once and hears the shown one\'s verdict', async () => {
  const tab = await hostAt('host.html');
  await tab.waitForFunction(() => window.received.some((r) => r.data.birlink === 'ready'), null, { timeout: 30000 });
  const answers = await ask(tab, { birlink: 'load', id: 'pair', view: 'compare',
    files: [{ name: 'rank0.json', data: sample('ring-attention-with-grid.json') }],
    against: [{ name: 'rank1.json', data: sample('ring-attention-send-k-buf.json') }] }, 2);
  assert.equal(answers[0].birlink, 'ack');
  assert.equal(answers[1].birlink, 'linked');
  assert.equal(answers[1].ok, true, 'rank 0 links');
  const frame = tab.frameLocator('#frame');
  await frame.locator('#compare-verdict').waitFor({ timeout: 30000 });
  assert.match(await frame.locator('#compare-verdict').innerText(), /B fails in vnc_remote_addr_map with 1514/);
  assert.deepEqual(tab.errors, []);
  await tab.context().close();
});
