#!/usr/bin/env bash
# The test command (README): formatting, lints, every native test, the browser unit
# tests (wasm-bindgen-test in headless Chromium), the release and debug builds, and the
# end-to-end tests (playwright-core driving Chromium, against both builds and against
# what scripts/serve.sh serves). CI runs exactly this. It installs what it needs
# itself, idempotently.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "setup"
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --all -- --check

step "lint (native, and the web app for wasm32)"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p birlink-web --target wasm32-unknown-unknown --locked -- -D warnings

step "native tests (library, CLI, snapshots, properties, one test per code, every layout, UI state)"
cargo test --workspace --locked

step "the fuzz crate builds on stable (its targets need nightly; its models and tools must not rot)"
cargo check --manifest-path fuzz/Cargo.toml --lib --examples --locked

step "browser unit tests (wasm-bindgen-test in headless Chromium)"
cargo test -p birlink-web --target wasm32-unknown-unknown --locked --test web

step "release build of the inspector"
trunk build --release

step "debug build of the inspector (yew checks hook order there; the end-to-end tests walk it)"
trunk build --dist dist-debug

step "end-to-end tests (playwright-core, Chromium)"
node --test tests/e2e/

printf '\nall tests passed\n'
