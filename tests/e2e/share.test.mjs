// Links that carry the link set (embed spec §5): files uploaded, shared, and the link
// opened in a fresh context — the same verdict, counts and view, no request beyond the
// page's own files; `birlink share` prints the same link; above the budget the dialog
// says so and offers the bundle, which links as the files did.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, verdict, nextVerdict, download, cli, scratch } from './harness.mjs';

let server;
let browser;
let out;
before(async () => {
  server = await serve();
  browser = await launch();
  out = scratch('share');
  execFileSync(cli(), ['gen', '--fault', '1512', '--out', path.join(out, 'small')], { stdio: 'ignore' });
  execFileSync(cli(), ['gen', '--insts', '30000', '--out', path.join(out, 'big')], { stdio: 'ignore' });
});
after(async () => { await browser?.close(); await server?.close(); });

const files = (dir) => fs.readdirSync(path.join(out, dir)).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(out, dir, f));

async function upload(page, dir) {
  const first = await verdict(page);
  await page.setInputFiles('#file-input', files(dir));
  return nextVerdict(page, first);
}

test('a shared link reproduces the run anywhere, and the CLI makes the same link', async () => {
  const page = await open(browser, server.url);
  const text = await upload(page, 'small');
  assert.match(text, /link failed in vnc_link/);
  await page.keyboard.press('3');
  await page.keyboard.press('s');
  const field = page.locator('#share-url');
  await field.waitFor();
  const link = await field.inputValue();
  assert.ok(link.startsWith(`${server.url}#`), link);
  assert.match(link, /view=barriers/);
  assert.match(link, /data=v1\./);
  assert.equal(await field.evaluate((e) => e.readOnly), true);
  assert.match(await page.locator('#share').innerText(), /characters of 32000 at most/);
  await page.keyboard.press('Escape');
  await page.locator('#share').waitFor({ state: 'detached' });

  // Opened in a fresh context: the same run and view, requests only for the page itself.
  const fresh = await browser.newContext();
  const requests = [];
  fresh.on('request', (r) => requests.push(r.url()));
  const other = await fresh.newPage();
  const errors = [];
  other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await other.goto(link);
  await other.locator('#verdict').waitFor();
  assert.equal(await other.locator('#verdict').innerText().then((t) => t.split('\n')[0]), text.split('\n')[0]);
  assert.match(await other.locator('#verdict').innerText(), /1 error/);
  assert.equal(await other.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-barriers');
  assert.deepEqual(await other.locator('#load-panel .card .file').allInnerTexts(), ['nc00.json', 'nc01.json']);
  const foreign = requests.filter((u) => !u.startsWith(server.origin));
  assert.deepEqual(foreign, [], 'nothing but the page\'s own origin');
  assert.ok(!requests.some((u) => /samples\/moe-2core/.test(u)), 'the default sample is not fetched');
  assert.deepEqual(errors, []);
  // A reload keeps the data in the URL and the same run.
  await other.reload();
  await other.locator('#verdict').waitFor();
  assert.match(await other.locator('#verdict').innerText(), /link failed in vnc_link/);
  await fresh.close();

  // The CLI, given the same files and view state, prints the same link.
  const fragment = new URLSearchParams(link.split('#')[1]);
  const args = ['share', ...files('small'), '--base', server.url, '--view', fragment.get('view')];
  for (const key of ['step', 'diag', 'select']) if (fragment.get(key)) args.push(`--${key}`, fragment.get(key));
  const printed = execFileSync(cli(), args).toString().trim();
  assert.equal(printed, link);
  assert.deepEqual(page.errors, []);
});

test('above the budget, no link: the bundle instead, and it links as the files do', async () => {
  const page = await open(browser, server.url);
  const text = await upload(page, 'big');
  assert.match(text, /linked/);
  await page.click('#share-button');
  await page.locator('#share-too-large').waitFor({ timeout: 60000 });
  assert.match(await page.locator('#share-too-large').innerText(), /above the budget of 32000|too large for a link/);
  assert.equal(await page.locator('#share-url').count(), 0, 'no link that would be cut');
  const bundle = await download(page, '#share-bundle');
  const bundleFile = path.join(out, 'linkset.json');
  fs.writeFileSync(bundleFile, bundle);
  const direct = path.join(out, 'direct');
  const bundled = path.join(out, 'bundled');
  execFileSync(cli(), ['link', ...files('big'), '--out', direct, '--quiet']);
  execFileSync(cli(), ['link', bundleFile, '--out', bundled, '--quiet']);
  assert.ok(fs.readFileSync(path.join(direct, 'linked.json')).equals(fs.readFileSync(path.join(bundled, 'linked.json'))));
  // The CLI refuses too, and writes the same bundle when asked.
  let refused;
  try {
    execFileSync(cli(), ['share', ...files('big'), '--bundle', path.join(out, 'cli-bundle.json')], { stdio: 'pipe' });
  } catch (error) {
    refused = error;
  }
  assert.equal(refused?.status, 1);
  assert.ok(fs.readFileSync(path.join(out, 'cli-bundle.json')).equals(bundle), 'the CLI\'s bundle is the page\'s');
  assert.deepEqual(page.errors, []);
});
