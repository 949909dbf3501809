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
  # --- field fixtures with their own dependencies (test/field-zod.test.ts) ---
  # Projects that bring their own zod (3.25, 4.0) install it from the registry,
  # from their own lockfile; skipped when already installed from that lockfile.
  for lock in test/fixtures/field/*/package-lock.json; do
    fixture="$(dirname "$lock")"
    if [ ! -f "$fixture/node_modules/.package-lock.json" ] || [ "$lock" -nt "$fixture/node_modules/.package-lock.json" ]; then
      echo "Installing the dependencies of $fixture"
      npm ci --prefix "$fixture" --no-audit --no-fund --loglevel=error
    fi
  done
  # --- end of field fixtures ---

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
