// Screenshots of every view at 1280x800 for the README and the notes:
//   node tests/perf/screenshots.mjs   (needs dist/; writes docs/img/*.png)
import path from 'node:path';
import { serve, launch, verdict, root } from '../e2e/harness.mjs';

const out = path.join(root, 'docs/img');
const server = await serve();
const browser = await launch();

async function shoot(name, { query = '', scheme = 'light', before = async () => {}, viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport, colorScheme: scheme });
  const page = await context.newPage();
  await page.goto(server.url + query);
  await verdict(page);
  await before(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  await context.close();
}

await shoot('pipeline', { before: async (p) => { await p.keyboard.press('j'); await p.keyboard.press('j'); } });
await shoot('call-graph', { before: async (p) => { await p.keyboard.press('2'); await p.click('.node.memloc >> nth=0'); } });
await shoot('barriers', { before: async (p) => { await p.keyboard.press('3'); } });
await shoot('semaphores', { before: async (p) => { await p.keyboard.press('4'); } });
await shoot('addresses', { before: async (p) => { await p.keyboard.press('5'); } });
await shoot('diagnostics-1514', { query: '?sample=error-1514.json' });
await shoot('call-graph-1514', { query: '?sample=error-1514.json', before: async (p) => { await p.keyboard.press('2'); } });
await shoot('diagnostics-1512', { query: '?sample=error-1512.json' });
await shoot('dark', { scheme: 'dark', query: '?sample=ring-4core.json', before: async (p) => { await p.keyboard.press('2'); } });
await shoot('embed', {
  query: '?embed=1&sample=error-1514.json#view=callgraph',
  viewport: { width: 900, height: 640 },
  before: async (p) => { await p.locator('#call-graph-svg').waitFor(); await p.click('.node.memloc.failing'); },
});
await shoot('share', { query: '?sample=error-1514.json', before: async (p) => { await p.keyboard.press('s'); await p.locator('#share-url').waitFor(); } });
await browser.close();
await server.close();
console.log(`screenshots in ${out}`);
