#!/usr/bin/env bash
# Runs the unit + integration tests (vitest; arguments are passed on) on
# Node 24, leaving this tree's own install untouched. Node 24 is the npm
# registry's binary package (scripts/node-binary.sh). The tests run
# in a copy of the tree whose node_modules is hard-linked to this one except
# better-sqlite3, which is copied and rebuilt for Node 24 from source.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_VERSION=24.22.3

node_dir="$(dirname "$(dirname "$(bash scripts/node-binary.sh "$NODE24_VERSION")")")"

copy=$(mktemp -d "${TMPDIR:-/tmp}/bdk-node24-XXXXXX")
trap 'rm -rf "$copy"' EXIT
# The tree (with its builds, dist/ and .next/) without its install, caches, reports and state.
tar -cf - --exclude=./node_modules --exclude=./.git --exclude=./.next/cache \
  --exclude=./test-results --exclude=./bench/.work --exclude=./e2e/.work --exclude='.bdk' . | tar -xf - -C "$copy"
cp -al node_modules "$copy/node_modules"
# Written at run time (caches) or rebuilt: real files, never links into this tree.
rm -rf "$copy/node_modules/.cache" "$copy/node_modules/.vite" "$copy/node_modules/better-sqlite3"
cp -a node_modules/better-sqlite3 "$copy/node_modules/better-sqlite3"

export PATH="$node_dir/bin:$PATH"
# node-gyp builds against the package's headers (nothing is downloaded), here and in the tests' own installs.
export npm_config_nodedir="$node_dir"
echo "Rebuilding better-sqlite3 for Node $(node --version)"
# build_from_source: skip prebuild-install's download attempt (the setting is the package's; npm warns it does not know it).
if ! (cd "$copy" && npm_config_build_from_source=true npm rebuild better-sqlite3 >"$copy/.rebuild.log" 2>&1); then
  cat "$copy/.rebuild.log" >&2
  echo "node24.sh: rebuilding better-sqlite3 for Node 24 failed" >&2
  exit 1
fi
cd "$copy"
node node_modules/vitest/vitest.mjs run "$@"
