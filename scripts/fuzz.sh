#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 300) each, then minimizes the corpora.
# Needs nightly (rustup toolchain install nightly) and cargo-fuzz 0.13.2; installs the
# latter if missing. Findings land in fuzz/artifacts/<target>/ (see fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-300}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2 --locked
[ -d corpus/read_bytes ] || cargo +nightly run --quiet --example seed
declare -A max_len=([read_bytes]=65536 [link_set]=8192 [mutate_generated]=4096 [fast_vs_general]=4096 [direct_vs_serde]=16384 [read_log]=16384)
# The structured targets read their input with `arbitrary`: short inputs mean few
# modules or edits, so they start at full length instead of growing into it.
declare -A len_control=([read_bytes]=100 [link_set]=0 [mutate_generated]=0 [fast_vs_general]=100 [direct_vs_serde]=100 [read_log]=0)
for target in read_bytes link_set mutate_generated fast_vs_general direct_vs_serde read_log; do
  echo "== $target for ${seconds}s"
  cargo +nightly fuzz run -O -a -s none "$target" -- -max_total_time="$seconds" -rss_limit_mb=4096 \
    -max_len="${max_len[$target]}" -len_control="${len_control[$target]}" -print_final_stats=1 2>&1 | grep -E "^(#[0-9]+.*DONE|stat::|==|SUMMARY|Done)" || true
done
for target in read_bytes link_set mutate_generated fast_vs_general direct_vs_serde read_log; do
  cargo +nightly fuzz cmin -O -a -s none "$target" >/dev/null 2>&1 || true
done
cargo +nightly run --quiet --example insts
ls artifacts/*/ 2>/dev/null && { echo "findings above: see fuzz/README.md"; exit 1; } || echo "no findings"
