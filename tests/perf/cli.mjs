// `birlink link` against its tight floor, on the same link set written several ways (not
// a test: numbers for the notes and docs/benchmarks.md).
//
//   node tests/perf/cli.mjs [--sets DIR] [--size 8x100000] [--rounds 5] [--only NAME,…]
//
// Needs target/release/birlink and the floor (cargo build --release -p birlink-cli
// --example floor). Writes the sets into DIR (default target/perf-sets) with a streamed
// `birlink gen` when they are not there yet: the generator's own shape, compact, and
// real-shaped instructions compact or 2-space indented, keys sorted or in a producer's
// order — the same modules each time — and short real instructions (`--shape short`,
// about 400 bytes each) the same ways. `held B/inst` is the peak RSS per instruction. Then, round after round, for each set: the floor
// (read each file, serde_json into IgnoredAny, write the same bytes), `birlink link
// --threads 1`, and `birlink link` on every core, each timed with its peak RSS
// (/usr/bin/time); the medians are printed, with the ratios the benchmarks quote. The
// outputs go to /dev/shm when there is one, so a slow disk is not what is timed.

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
const setsDir = path.resolve(flag('--sets', path.join(root, 'target/perf-sets')));
const size = flag('--size', '8x100000');
const rounds = Number(flag('--rounds', '5'));
const only = flag('--only', null)?.split(',');
const [cores, insts] = size.split('x');
const birlink = path.join(root, 'target/release/birlink');
const floor = path.join(root, 'target/release/examples/floor');
const scratch = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

const SETS = [
  { name: 'gen-compact', args: ['--compact', '--shape', 'gen'] },
  { name: 'real-compact-sorted', args: ['--compact', '--shape', 'real'] },
  { name: 'real-compact-producer', args: ['--compact', '--shape', 'real', '--keys', 'producer'] },
  { name: 'real-indented-sorted', args: ['--shape', 'real'] },
  { name: 'real-indented-producer', args: ['--shape', 'real', '--keys', 'producer'] },
  // Short real instructions (about 400 bytes each): holding an instruction weighs most.
  { name: 'short-compact-sorted', args: ['--compact', '--shape', 'short'] },
  { name: 'short-compact-producer', args: ['--compact', '--shape', 'short', '--keys', 'producer'] },
  { name: 'short-indented-sorted', args: ['--shape', 'short'] },
  { name: 'short-indented-producer', args: ['--shape', 'short', '--keys', 'producer'] },
].filter((s) => !only || only.includes(s.name));

function files(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f));
}

/** Runs a command, returning its wall time (s) and peak RSS (bytes). */
function timed(cmd, args) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`${cmd} failed: ${run.stderr}`);
  const [seconds, kb] = run.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return { seconds, rss: kb * 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

fs.mkdirSync(setsDir, { recursive: true });
const rows = [];
for (const set of SETS) {
  const dir = path.join(setsDir, `${size}-${set.name}`);
  if (!fs.existsSync(path.join(dir, 'nc00.json'))) {
    execFileSync(birlink, ['gen', '--cores', cores, '--insts', insts, '--handoffs', '16', '--remote-dma', '64',
      '--barriers', '32', '--loops', '3', ...set.args, '--out', dir], { stdio: 'ignore' });
  }
  rows.push({ set, dir, inputs: files(dir), runs: { floor: [], one: [], all: [] } });
}
for (let round = 0; round < rounds; round++) {
  for (const row of rows) {
    const out = fs.mkdtempSync(path.join(scratch, 'birlink-cli-'));
    row.runs.floor.push(timed(floor, [out, ...row.inputs]));
    fs.rmSync(out, { recursive: true, force: true });
    row.runs.one.push(timed(birlink, ['link', ...row.inputs, '--out', out, '--quiet', '--threads', '1']));
    fs.rmSync(out, { recursive: true, force: true });
    row.runs.all.push(timed(birlink, ['link', ...row.inputs, '--out', out, '--quiet']));
    fs.rmSync(out, { recursive: true, force: true });
  }
}

const compactBytes = Object.fromEntries(rows.map((r) => [r.set.name, r.inputs.reduce((n, f) => n + fs.statSync(f).size, 0)]));
// The compact bytes of the same modules, for an indented or reordered set of a shape.
const sameCompact = (name) => compactBytes[`${name.split('-')[0]}-compact-sorted`];
const genPerByte = rows.find((r) => r.set.name === 'gen-compact');
const perByte = (row, key) => median(row.runs[key].map((r) => r.seconds)) / compactBytes[row.set.name];
const mb = (n) => `${(n / 1e6).toFixed(0)} MB`;
console.log(`${size}, ${rounds} rounds, medians; ${os.cpus().length} cores`);
const instructions = Number(cores) * Number(insts);
console.log('| set | bytes | floor | link 1 thread | ×floor | link, every core | peak RSS 1t | ×input | ×compact | held B/inst | ns/B (1t) | ×gen per byte |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const bytes = compactBytes[row.set.name];
  const f = median(row.runs.floor.map((r) => r.seconds));
  const one = median(row.runs.one.map((r) => r.seconds));
  const all = median(row.runs.all.map((r) => r.seconds));
  const rss = median(row.runs.one.map((r) => r.rss));
  const compact = sameCompact(row.set.name) ?? bytes;
  const vsGen = genPerByte ? (perByte(row, 'one') / perByte(genPerByte, 'one')).toFixed(2) : '-';
  console.log(`| ${row.set.name} | ${mb(bytes)} | ${f.toFixed(2)} s | ${one.toFixed(2)} s | ${(one / f).toFixed(2)} | ${all.toFixed(2)} s | ${mb(rss)} | ${(rss / bytes).toFixed(2)} | ${(rss / compact).toFixed(2)} | ${(rss / instructions).toFixed(0)} | ${(one * 1e9 / bytes).toFixed(2)} | ${vsGen} |`);
}
