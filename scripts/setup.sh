#!/usr/bin/env bash
# Installs everything the kit and its tests need on a fresh Debian machine:
# npm dependencies (when missing) and, for the tests, Debian's Chromium (the
# browser tests) and bubblewrap (the sandboxed shell, `local.sandbox: true`).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules/better-sqlite3 ]; then
  if [ -f package-lock.json ]; then npm ci; else npm install; fi
fi

if [ "${1:-}" = "--for-tests" ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing from Debian for the tests: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
