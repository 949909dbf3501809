/**
 * Opening a state root: empty, and with 5,000 sessions (20 events each, with
 * their trace files), intact and after a crash cut the last session's trace.
 * An open checks only the traces of the last stored events, so it should
 * cost about the same whatever the store holds; the figure for checking
 * every trace shows what an eager repair would cost instead.
 * Run: npx tsx bench/store/open.ts [sessions]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openStore } from "../../server/store/store.ts";
import { traceFile } from "../../server/store/trace.ts";

const principal = { type: "user", id: "bench" } as const;

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

function timeOpen(stateRoot: string, rounds: number, before?: () => void): number {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    before?.();
    const started = performance.now();
    const store = openStore(stateRoot);
    samples.push(performance.now() - started);
    store.close();
  }
  return median(samples);
}

export function benchOpen(sessions = 5000): void {
  const empty = mkdtempSync(path.join(tmpdir(), "bdk-bench-open-empty-"));
  const full = mkdtempSync(path.join(tmpdir(), "bdk-bench-open-full-"));
  try {
    openStore(empty).close();
    const store = openStore(full);
    let last = "";
    for (let i = 0; i < sessions; i++) {
      last = store.sessions.create({ mode: "chat", channel: "http", principal }).id;
      store.events.append(
        last,
        Array.from({ length: 20 }, (_, step) => ({ type: "step.started" as const, turnId: "turn_bench", data: { step } })),
      );
    }
    store.close();
    const file = traceFile(full, last);
    const intact = readFileSync(file, "utf8");
    const cut = () => writeFileSync(file, intact.split("\n").slice(0, 15).join("\n") + "\n");

    const emptyMs = timeOpen(empty, 15);
    const fullMs = timeOpen(full, 15);
    const crashedMs = timeOpen(full, 15, cut);
    const check = openStore(full);
    let started = performance.now();
    check.events.repairRecentTraces();
    const checkMs = performance.now() - started;
    started = performance.now();
    check.events.repairRecentTraces(Number.MAX_SAFE_INTEGER);
    const eagerMs = performance.now() - started;
    check.close();
    const fmt = (ms: number) => ms.toFixed(1);
    console.log(
      `open: empty state root ${fmt(emptyMs)} ms; ${sessions} sessions (${sessions * 20} events) ${fmt(fullMs)} ms; ` +
        `after a crash cut the last trace ${fmt(crashedMs)} ms (median of 15, trace check included)`,
    );
    console.log(`open: of which the trace check of the last stored events ${fmt(checkMs)} ms; checking every trace instead (an eager repair) ${fmt(eagerMs)} ms`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) benchOpen(Number(process.argv[2] ?? 5000));
