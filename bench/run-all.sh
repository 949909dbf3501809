#!/usr/bin/env bash
# Runs every benchmark and prints its figures. Benchmarks measure; they never
# fail a build. Run on a quiet machine: the targets are for 2 idle cores.
set -uo pipefail
cd "$(dirname "$0")/.."
for bench in discovery store turns harness http playground evals reminders fuzz getting-started; do
  echo "== bench/$bench"
  npx tsx "bench/$bench/run.ts" || echo "(bench/$bench failed)"
done
