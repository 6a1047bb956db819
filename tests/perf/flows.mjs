// `birlink link` in the compiler's two flows, against its floor, on real-shaped sets of
// the public MoE compile's size (not a test: numbers for the notes and
// docs/benchmarks.md).
//
//   node tests/perf/flows.mjs [--sets DIR] [--insts 75000] [--scales 1,4] [--rounds 3]
//
// For each scale (×75k instructions per core by default, 2 cores), writes with
// `birlink gen --shape real` a flat set (one subgraph per core) and a
// modular one (3 subgraphs per core, a netlist of 48 partitions), compact and 2-space
// indented — the same instructions per core each time. Then, round after round: the
// floor (read each file, serde_json into IgnoredAny, write the same bytes), `birlink link
// --threads 1` and `birlink link` on every core, each with its peak RSS (/usr/bin/time).
// Prints the medians, per byte, and the modular flow's per-byte time and peak against
// the flat flow's for the same layout (the goal: within 1.2×).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const setsDir = path.resolve(flag('--sets', path.join(root, 'target/perf-flows')));
const base = Number(flag('--insts', '75000'));
const scales = flag('--scales', '1,4').split(',').map(Number);
const rounds = Number(flag('--rounds', '3'));
const birlink = path.join(root, 'target/release/birlink');
const floor = path.join(root, 'target/release/examples/floor');
const scratch = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

/** Every `.json` below a folder, sorted. */
function files(dir) {
  const found = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) found.push(p);
    }
  };
  walk(dir);
  return found.sort();
}

function timed(cmd, args) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${run.stderr}`);
  const [seconds, kb] = run.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return { seconds, rss: kb * 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const sets = [];
for (const scale of scales) {
  const insts = String(base * scale);
  for (const layout of ['compact', 'indented']) {
    for (const flow of ['flat', 'modular']) {
      const name = `${flow}-${layout}-x${scale}`;
      const dir = path.join(setsDir, name);
      if (!fs.existsSync(path.join(dir, 'nc00'))) {
        const args = ['gen', '--flow', flow, '--cores', '2', '--insts', insts, '--shape', 'real', '--handoffs', '16',
          '--remote-dma', '64', '--barriers', '32', '--loops', '3', '--out', dir];
        if (flow === 'modular') args.push('--subgraphs', '3', '--partitions', '48');
        if (layout === 'compact') args.push('--compact');
        execFileSync(birlink, args, { stdio: 'ignore' });
      }
      const inputs = files(dir);
      const bytes = inputs.reduce((n, f) => n + fs.statSync(f).size, 0);
      sets.push({ name, flow, layout, scale, dir, inputs, bytes, runs: { floor: [], one: [], all: [] } });
    }
  }
}
for (let round = 0; round < rounds; round++) {
  for (const set of sets) {
    const out = fs.mkdtempSync(path.join(scratch, 'birlink-flows-'));
    set.runs.floor.push(timed(floor, [out, ...set.inputs]));
    fs.rmSync(out, { recursive: true, force: true });
    set.runs.one.push(timed(birlink, ['link', set.dir, '--out', out, '--quiet', '--threads', '1']));
    fs.rmSync(out, { recursive: true, force: true });
    set.runs.all.push(timed(birlink, ['link', set.dir, '--out', out, '--quiet']));
    fs.rmSync(out, { recursive: true, force: true });
  }
}

const mb = (n) => `${(n / 1e6).toFixed(0)} MB`;
console.log(`2 cores × ${base} instructions × [${scales.join(', ')}], real-shaped; ${rounds} rounds, medians; ${os.cpus().length} cores`);
console.log('| set | bytes | floor | link 1 thread | ×floor | every core | peak RSS (1t) | ×input | ns/B (1t) | modular/flat per byte | modular/flat peak per byte |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const set of sets) {
  const f = median(set.runs.floor.map((r) => r.seconds));
  const one = median(set.runs.one.map((r) => r.seconds));
  const all = median(set.runs.all.map((r) => r.seconds));
  const rss = median(set.runs.one.map((r) => r.rss));
  let ratios = '- | -';
  if (set.flow === 'modular') {
    const flat = sets.find((s) => s.flow === 'flat' && s.layout === set.layout && s.scale === set.scale);
    const flatOne = median(flat.runs.one.map((r) => r.seconds)) / flat.bytes;
    const flatRss = median(flat.runs.one.map((r) => r.rss)) / flat.bytes;
    ratios = `${((one / set.bytes) / flatOne).toFixed(2)} | ${((rss / set.bytes) / flatRss).toFixed(2)}`;
  }
  console.log(`| ${set.name} | ${mb(set.bytes)} | ${f.toFixed(2)} s | ${one.toFixed(2)} s | ${(one / f).toFixed(2)} | ${all.toFixed(2)} s | ${mb(rss)} | ${(rss / set.bytes).toFixed(2)} | ${(one * 1e9 / set.bytes).toFixed(2)} | ${ratios} |`);
}
