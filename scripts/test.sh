#!/usr/bin/env bash
# The test command (README): formatting, lints, every native test. CI runs exactly this.
# It installs what it needs itself, idempotently.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "toolchain"
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --all -- --check

step "lint"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "native tests (library, CLI, snapshots, properties, one test per code)"
cargo test --workspace --locked

printf '\nall tests passed\n'
