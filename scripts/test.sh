#!/usr/bin/env bash
# The whole test suite: type check, build, unit + integration tests (vitest),
# the browser end-to-end tests, and the unit + integration tests once more on
# Node 24 (scripts/node24.sh). Installs what it needs first (scripts/setup.sh).
# Ends with one summary line, "N passed, M failed" (scripts/summary.mjs), and
# exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf test-results
mkdir -p test-results
steps=()

# Runs one step, recording its exit status for the summary.
step() {
  local name=$1
  shift
  echo "== $name"
  "$@"
  local status=$?
  steps+=("$name=$status")
  return $status
}

finish() {
  node scripts/summary.mjs "${steps[@]}"
  exit $?
}

step setup bash scripts/setup.sh --for-tests || finish
step typecheck npx tsc --noEmit -p . || finish
# The kit compiled to dist/ and the web app the integration and e2e tests serve.
step build npm run build || finish
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
if ls e2e/*.e2e.ts >/dev/null 2>&1; then
  # Playwright Test driving Debian's Chromium (playwright.config.ts); its JSON report is test-results/e2e.json.
  step e2e npx playwright test
fi
step vitest-node24 bash scripts/node24.sh --reporter=default --reporter=json --outputFile.json="$PWD/test-results/vitest-node24.json"
# CI prints the performance figures beside their targets (never failing on a number); a local `npm test` skips them.
[ "${BDK_CI_BENCH:-}" = "1" ] && bash scripts/ci-bench.sh
finish
