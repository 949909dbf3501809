#!/usr/bin/env bash
# CI's performance report: short runs of bench/http, bench/turns and
# bench/otel (tracing off vs on), each figure printed beside its target.
# It measures and prints; it never fails the build on a number (a CI
# machine is no quiet two-core box). Needs the web build (`npm run build`).
set -uo pipefail
cd "$(dirname "$0")/.."

echo "== performance (short runs; targets are for two idle cores, figures never fail the build)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
run() {
  echo "-- $1"
  shift
  timeout 600 npx tsx "$@" || echo "(did not finish: exit $?)"
}
run "bench/turns (engine only)" bench/turns/run.ts 100
run "bench/http (bdk serve)" bench/http/run.ts --short
run "bench/otel (tracing off vs on)" bench/otel/run.ts --short
exit 0
