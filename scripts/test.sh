#!/usr/bin/env bash
# The whole test suite: type check, unit + integration tests (vitest), then the
# browser end-to-end tests. Installs what it needs first (see scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --for-tests

echo "== typecheck"
npx tsc --noEmit -p .

echo "== vitest"
npx vitest run

if [ -d e2e ] && ls e2e/*.e2e.ts >/dev/null 2>&1; then
  echo "== e2e (Playwright + Debian Chromium)"
  node --import tsx e2e/run.ts
fi
