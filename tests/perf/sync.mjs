// The sync check's share of `birlink link` (issue 40; docs/benchmarks.md, the sync
// check): each set linked with the check and with `--no-sync`, alternately (and with a
// second build, `--base`, to compare against), round after round on this noisy machine;
// prints each one's median and best time, their ratios to `--no-sync`, and the check's
// extra peak RSS over the input's bytes. Not part of the e2e suite.
//
//     node tests/perf/sync.mjs [--bin BIN] [--base BIN] [--rounds N] [--threads N] [SET…]
//
// Without SETs it writes the four 2 × 75k sets the benchmarks use (real and short
// shapes, flat and modular flows, compact) to target/perf-sync/ with BIN's `gen`.
// BIN defaults to target/release/birlink. Peaks are read from GNU time (`/usr/bin/time
// -f %M`) when it is there.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const bin = option('--bin', 'target/release/birlink');
const base = option('--base', null);
const rounds = Number(option('--rounds', '11'));
const threads = option('--threads', null);
let sets = args;
if (!existsSync(bin)) {
  console.error(`no ${bin}: cargo build --release -p birlink-cli (or --bin BIN)`);
  process.exit(2);
}

/** Writes the benchmarks' four sets, once. */
function makeSets() {
  const made = [];
  for (const shape of ['real', 'short']) {
    for (const flow of ['flat', 'modular']) {
      const out = join('target', 'perf-sync', `2x75000-${shape}-${flow}`);
      if (!existsSync(out)) {
        const gen = ['gen', '--cores', '2', '--insts', '75000', '--shape', shape, '--compact', '--flow', flow];
        run(bin, [...gen, '--barriers', '75', '--remote-dma', '15', '--out', out]);
      }
      made.push(out);
    }
  }
  return made;
}

function run(program, argv) {
  const done = spawnSync(program, argv, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (done.status !== 0 && done.status !== 1) {
    console.error(`${program} ${argv.join(' ')} exited ${done.status}: ${done.stderr}`);
    process.exit(1);
  }
  return done;
}

const gnuTime = existsSync('/usr/bin/time');

/** One link: its wall time (s) and peak RSS (bytes, when GNU time is there). */
function link(program, set, extra) {
  const argv = ['link', set, '--out', join('target', 'perf-sync', 'out'), ...extra];
  if (threads) argv.push('--threads', threads);
  const start = process.hrtime.bigint();
  const done = gnuTime ? run('/usr/bin/time', ['-f', '%M', program, ...argv]) : run(program, argv);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const kb = gnuTime ? Number(done.stderr.trim().split('\n').pop()) : NaN;
  return { seconds, peak: kb * 1024 };
}

function bytesUnder(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

if (sets.length === 0) sets = makeSets();
const builds = [
  ...(base ? [['base', base, []]] : []),
  ['check', bin, []],
  ['no-sync', bin, ['--no-sync']],
];
console.log(`${rounds} rounds, ${threads ? `${threads} thread(s)` : 'default threads'}; median (best) seconds`);
for (const set of sets) {
  const times = Object.fromEntries(builds.map(([name]) => [name, []]));
  const peaks = Object.fromEntries(builds.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, program, extra] of builds) {
      const { seconds, peak } = link(program, set, extra);
      times[name].push(seconds);
      peaks[name].push(peak);
    }
  }
  const input = bytesUnder(set);
  const floor = { median: median(times['no-sync']), best: Math.min(...times['no-sync']) };
  const cells = builds.map(([name]) => {
    const m = median(times[name]);
    const b = Math.min(...times[name]);
    return `${name} ${m.toFixed(3)} (${b.toFixed(3)}) ×${(m / floor.median).toFixed(2)} (×${(b / floor.best).toFixed(2)})`;
  });
  const extra = (Math.min(...peaks.check) - Math.min(...peaks['no-sync'])) / input;
  console.log(`${set}: ${cells.join(' | ')} | extra peak ${Number.isNaN(extra) ? '?' : extra.toFixed(3)} × input`);
}
