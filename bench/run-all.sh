#!/usr/bin/env bash
# Runs every benchmark and prints its figures. Benchmarks measure; they never
# fail a build. Run on a quiet machine: the targets are for 2 idle cores.
set -uo pipefail
cd "$(dirname "$0")/.."
for bench in discovery startup store pg-store cluster turns trace harness http crash-storm playground evals reminders fuzz getting-started; do
  echo "== bench/$bench"
  npx tsx "bench/$bench/run.ts" || echo "(bench/$bench failed)"
done
echo "== bench/harness/file-tools"
npx tsx bench/harness/file-tools.ts || echo "(bench/harness/file-tools failed)"
