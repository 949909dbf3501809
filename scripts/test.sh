#!/usr/bin/env bash
# The whole test suite: type check, build, unit + integration tests (vitest),
# then the browser end-to-end tests. Installs what it needs first
# (scripts/setup.sh). Ends with one summary line: "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results

bash scripts/setup.sh --for-tests || exit 1

echo "== typecheck"
npx tsc --noEmit -p . || exit 1

echo "== build (the web app the integration and e2e tests serve)"
npm run build || exit 1

echo "== vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_status=$?

e2e_status=0
if ls e2e/*.e2e.ts >/dev/null 2>&1; then
  echo "== e2e (Playwright + Debian Chromium)"
  node --import tsx e2e/run.ts
  e2e_status=$?
fi

node scripts/summary.mjs
[ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
