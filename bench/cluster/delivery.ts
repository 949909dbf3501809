/**
 * Cross-node stream delivery: `npx tsx bench/cluster/delivery.ts [events]`.
 * Two `bdk serve` of bot-examples/hello on one Postgres (a throwaway
 * cluster, or DATABASE_URL). Turns run on node A while a follower streams
 * the session from node B; each line's latency is its receipt on B minus
 * its event's `at` (stamped by A when it stores the event; one machine, one
 * clock). Prints p50/p99/max for a follower on A itself (the in-process
 * bus), on B woken by LISTEN/NOTIFY, and on a node with BDK_PG_LISTEN=off
 * (the 1 s poll alone). Target: B's p99 < 100 ms.
 */
import path from "node:path";
import { KIT_DIR, type RunningServer, startServer } from "../../test/support/bdk-server.ts";
import { benchDatabase } from "../support/postgres.ts";

const wanted = Number(process.argv[2] ?? 200);
const HELLO = path.join(KIT_DIR, "bot-examples", "hello");

const database = benchDatabase();
const url = database.url;

type Event = { type: string; index: number; at: string };

/** Follows the session on `server` from 0, calling `line` with each event and its latency; resolves the stop function once the stream is open. */
async function follow(server: RunningServer, sessionId: string, line: (event: Event, latencyMs: number) => void): Promise<() => void> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=0`, { signal: abort.signal });
  void (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      const receivedAt = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        const text = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!text) continue;
        const event = JSON.parse(text) as Event;
        if (typeof event.index === "number") line(event, receivedAt - Date.parse(event.at));
      }
    }
  })();
  return () => abort.abort();
}

async function post(server: RunningServer, route: string, body: unknown): Promise<{ sessionId: string; continuationToken: string }> {
  const response = await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (response.status !== 202) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { sessionId: string; continuationToken: string };
}

/** Runs turns on `owner` until the follower on `reader` has received `wanted` live events; their latencies. */
async function measure(owner: RunningServer, reader: RunningServer): Promise<number[]> {
  const created = await post(owner, "/v1/session", { message: "hello" });
  const latencies: number[] = [];
  let waitingSeen = 0;
  let onWaiting: (() => void) | undefined;
  // Events already stored when the follower connects come from the replay, not live: they do not count.
  let live = false;
  const stop = await follow(reader, created.sessionId, (event, latency) => {
    if (live) latencies.push(latency);
    if (event.type === "session.waiting") {
      waitingSeen++;
      onWaiting?.();
    }
  });
  const untilWaiting = (count: number) =>
    new Promise<void>((resolve) => {
      onWaiting = () => waitingSeen >= count && resolve();
      onWaiting();
    });
  await untilWaiting(1);
  live = true;
  let token = created.continuationToken;
  for (let turn = 2; latencies.length < wanted; turn++) {
    token = (await post(owner, `/v1/session/${created.sessionId}`, { message: `hello again ${turn}`, continuationToken: token })).continuationToken;
    await untilWaiting(turn);
  }
  stop();
  return latencies;
}

function figures(label: string, latencies: number[]): string {
  const sorted = [...latencies].sort((x, y) => x - y);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return `${label.padEnd(34)} events ${String(sorted.length).padStart(4)}  p50 ${String(at(0.5)).padStart(4)} ms  p99 ${String(at(0.99)).padStart(4)} ms  max ${String(sorted[sorted.length - 1]).padStart(4)} ms`;
}

const env = { BDK_DATABASE_URL: url };
const [a, b, polled] = await Promise.all([startServer({ dir: HELLO, env }), startServer({ dir: HELLO, env }), startServer({ dir: HELLO, env: { ...env, BDK_PG_LISTEN: "off" } })]);
try {
  console.log(`Cross-node stream delivery on Postgres (append on A → line on the follower), ${wanted}+ live events each:`);
  console.log(figures("follower on A (same node)", await measure(a, a)));
  console.log(figures("follower on B (LISTEN/NOTIFY)", await measure(a, b)));
  console.log(figures("follower on C (BDK_PG_LISTEN=off)", await measure(a, polled)));
} finally {
  await Promise.all([a.stop(), b.stop(), polled.stop()]);
  database.stop();
}
