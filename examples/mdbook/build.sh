#!/usr/bin/env bash
# Builds the example book into OUT (default: examples/mdbook/book) with birlink's dist/
# beside its pages, as a documentation site would ship it. Needs `mdbook` (installed by
# scripts/setup.sh) and a built dist/ (`trunk build --release`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
out="${1:-$here/book}"
mdbook build "$here" --dest-dir "$out"
rm -rf "$out/birlink"
cp -r "$root/dist" "$out/birlink"
