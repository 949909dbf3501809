#!/usr/bin/env bash
# The whole test suite: type check, build, unit + integration tests (vitest),
# the browser end-to-end tests, and the unit + integration tests once more on
# Node 24 (scripts/node24.sh), with a temporary PostgreSQL cluster for the
# Postgres tests (scripts/postgres.sh). Installs what it needs first (scripts/setup.sh).
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
# A throwaway PostgreSQL cluster for the Postgres tests (scripts/postgres.sh), stopped when the run ends;
# they find it in BDK_TEST_DATABASE_URL (a test file run alone starts its own).
if pg_env=$(bash scripts/postgres.sh start); then
  eval "$pg_env"
  export BDK_TEST_DATABASE_URL=$DATABASE_URL
  unset DATABASE_URL
  trap 'bash scripts/postgres.sh stop "$BDK_PG_DIR"' EXIT
else
  steps+=("postgres=1")
fi
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
if ls e2e/*.e2e.ts >/dev/null 2>&1; then
  # Playwright Test driving Debian's Chromium (playwright.config.ts); its JSON report is test-results/e2e.json.
  step e2e npx playwright test
fi
step vitest-node24 bash scripts/node24.sh --reporter=default --reporter=json --outputFile.json="$PWD/test-results/vitest-node24.json"
# CI prints the performance figures beside their targets (never failing on a number); a local `npm test` skips them.
[ "${BDK_CI_BENCH:-}" = "1" ] && bash scripts/ci-bench.sh
finish
