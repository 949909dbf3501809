/**
 * Store throughput: `npx tsx bench/store/run.ts [appendCount] [replayCount]`.
 * Appends one event per transaction (with its trace line), then replays a
 * 100k-event session through `events.iterate`; then the cost of opening a
 * 5,000-session state root (open.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDraft } from "../../server/protocol/events.ts";
import { openStore } from "../../server/store/store.ts";
import { benchOpen } from "./open.ts";

const appendCount = Number(process.argv[2] ?? 20_000);
const replayCount = Number(process.argv[3] ?? 100_000);
const principal = { type: "user", id: "bench" } as const;
const draft = (i: number): EventDraft => ({
  type: "message.appended",
  turnId: "turn_bench",
  data: { delta: `token ${i} of a streamed assistant answer, ` },
});

const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-bench-store-"));
const store = openStore(stateRoot);
try {
  const appendSession = store.sessions.create({ mode: "chat", channel: "http", principal }).id;
  let started = performance.now();
  for (let i = 0; i < appendCount; i++) store.events.append(appendSession, [draft(i)]);
  const appendSeconds = (performance.now() - started) / 1000;

  const replaySession = store.sessions.create({ mode: "chat", channel: "http", principal }).id;
  for (let i = 0; i < replayCount; i += 1000) {
    store.events.append(replaySession, Array.from({ length: Math.min(1000, replayCount - i) }, (_, j) => draft(i + j)));
  }
  started = performance.now();
  let replayed = 0;
  for (const batch of store.events.iterate(replaySession, 0, 1000)) replayed += batch.length;
  const replaySeconds = (performance.now() - started) / 1000;
  if (replayed !== replayCount) throw new Error(`replayed ${replayed} of ${replayCount} events`);

  const rate = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en-US");
  console.log(`append: ${appendCount} events, one per transaction: ${rate(appendCount, appendSeconds)} events/s`);
  console.log(`replay: ${replayCount} events via iterate(batch 1000): ${rate(replayCount, replaySeconds)} events/s`);
} finally {
  store.close();
  rmSync(stateRoot, { recursive: true, force: true });
}
benchOpen();
