#!/usr/bin/env bash
# Builds the inspector and serves it on http://127.0.0.1:8080 (the default sample
# opens at start). Installs what it needs on a fresh machine first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
echo "== serving on http://127.0.0.1:8080"
exec trunk serve --release "$@"
