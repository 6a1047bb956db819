// `birlink explain --log LOG --format json` on a 50 MB log, against a floor run side by
// side (not a test: numbers for the notes and docs/benchmarks.md).
//
//   node tests/perf/log.mjs [--mb 50] [--rounds 5]
//
// The log is the modular fixture (`crates/birlink-core/tests/logs/modular-two-cores.txt`)
// written again and again as separate compiles (each copy's process ids shifted, so the
// file holds hundreds of runs, the hardest case for the reader), into /dev/shm when there
// is one. The floor reads the same file and splits every line into its words (`awk '{ n
// += NF }'`): what any tool that looks at every line's fields pays. Each round times both with their peak RSS (/usr/bin/time);
// the medians and the ratio are printed. Needs target/release/birlink.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const mb = Number(flag('--mb', '50'));
const rounds = Number(flag('--rounds', '5'));
const birlink = path.join(root, 'target/release/birlink');
const scratch = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const log = path.join(scratch, `birlink-perf-${mb}mb-log-neuron-cc.txt`);

const fixture = fs.readFileSync(path.join(root, 'crates/birlink-core/tests/logs/modular-two-cores.txt'), 'utf8');
const out = fs.openSync(log, 'w');
let written = 0;
let copy = 0;
while (written < mb * 1e6) {
  // Each copy a compile of its own: its three processes' ids shifted.
  const text = fixture.replace(/ (41\d\d) /g, (_, pid) => ` ${Number(pid) + 100 * copy} `);
  fs.writeSync(out, text);
  written += Buffer.byteLength(text);
  copy += 1;
}
fs.closeSync(out);

function timed(command, args) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
  const [seconds, kb] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, mb: kb / 1024 };
}

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const floor = [];
const reader = [];
for (let round = 0; round < rounds; round += 1) {
  floor.push(timed('awk', ['{ n += NF } END { print n }', log]));
  reader.push(timed(birlink, ['explain', '--log', log, '--format', 'json']));
}
const f = median(floor.map((r) => r.seconds));
const r = median(reader.map((x) => x.seconds));
const rss = median(reader.map((x) => x.mb));
console.log(`${(written / 1e6).toFixed(1)} MB, ${copy} compiles, ${rounds} rounds, medians; ${os.cpus().length} cores`);
console.log('| log | floor (awk, words per line) | explain --log --format json | ×floor | MB/s | peak RSS | ×log |');
console.log('|---|---|---|---|---|---|---|');
console.log(`| ${(written / 1e6).toFixed(0)} MB, ${copy} compiles | ${f.toFixed(2)} s | ${r.toFixed(2)} s | ${(r / f).toFixed(1)} | ${(written / 1e6 / r).toFixed(0)} | ${rss.toFixed(0)} MB | ${(rss / (written / 1048576)).toFixed(2)} |`);
fs.rmSync(log);
