#!/usr/bin/env bash
# Installs everything the kit and its tests need on a fresh Debian machine:
# npm dependencies (when missing) and, for the tests, Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules/better-sqlite3 ]; then
  if [ -f package-lock.json ]; then npm ci; else npm install; fi
fi

if [ "${1:-}" = "--for-tests" ] && [ ! -x /usr/bin/chromium ] && ls e2e/*.e2e.ts >/dev/null 2>&1; then
  echo "Installing Debian's Chromium for the end-to-end tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
