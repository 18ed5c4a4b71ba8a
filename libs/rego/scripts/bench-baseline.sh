#!/bin/sh
# Builds @agp/rego as it is on a git ref (default: main) into a temporary directory and runs the
# benchmark with that build as the baseline, beside the current build, in the same process.
set -eu
ref=${1:-main}
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$ref" libs/rego package.json | tar -x -C "$tmp"
ln -s "$root/node_modules" "$tmp/node_modules"
# Packages npm installs under the workspace (a version that differs from the root's, e.g. ajv 8).
if [ -d "$here/node_modules" ] && [ ! -e "$tmp/libs/rego/node_modules" ]; then
  ln -s "$here/node_modules" "$tmp/libs/rego/node_modules"
fi
(cd "$tmp/libs/rego" && npx tsc -p tsconfig.build.json)
cd "$here"
npx tsc -p tsconfig.build.json
REGO_BASELINE_DIST="$tmp/libs/rego/dist" node --expose-gc dist/bench/bench.js
