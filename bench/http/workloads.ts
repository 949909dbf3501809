/**
 * The HTTP workloads of `bench/http`, shared with `bench/otel` (which runs
 * them with tracing off and on). Each returns its figures; the callers print.
 */
import { readFileSync } from "node:fs";
import { Agent, get, request } from "node:http";
import { performance } from "node:perf_hooks";
import { readNdjson } from "../../test/support/bdk-server.ts";

export type Event = { type: string; index: number; at: string };

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const median = (values: number[]) => percentile(values, 50);
export const fmt = (n: number) => n.toFixed(1);

/**
 * From `/proc/<pid>/stat`: the parent's pid, the CPU time (user + system, ms)
 * the process used (fields 14 and 15, in clock ticks: 100 a second on
 * Linux), and that of the children it has waited for (fields 16 and 17).
 */
export function procStat(pid: number): { parent: number; cpuMs: number; reapedChildrenCpuMs: number } {
  // The fields after the command (which may hold spaces) start at the third, state.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ").map(Number);
  return { parent: fields[1], cpuMs: (fields[11] + fields[12]) * 10, reapedChildrenCpuMs: (fields[13] + fields[14]) * 10 };
}

export const cpuMsOf = (pid: number) => procStat(pid).cpuMs;

/** POST /v1/session → turn.completed on its stream, `samples` times after `warmup` unmeasured turns. */
export async function turnOverhead(url: string, samples = 200, warmup = 20): Promise<{ p50: number; p99: number; samples: number }> {
  const measured: number[] = [];
  for (let i = 0; i < samples + warmup; i++) {
    const started = performance.now();
    const created = (await (
      await fetch(`${url}/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "hello" }),
      })
    ).json()) as { sessionId: string };
    await readNdjson<Event>(await fetch(`${url}/v1/session/${created.sessionId}/stream`), (e) => e.type === "turn.completed");
    if (i >= warmup) measured.push(performance.now() - started);
  }
  return { p50: percentile(measured, 50), p99: percentile(measured, 99), samples };
}

/** `count` sessions started at once, one turn each, until all wait again: turns per second. */
export async function concurrentRound(url: string, count: number, title: string): Promise<number> {
  const started = performance.now();
  // POSTs through node:http keep the client's own cost low on the shared cores.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const ids = new Set(
    await Promise.all(
      Array.from({ length: count }, () =>
        postJson<{ sessionId: string }>(agent, `${url}/v1/session`, { message: "hello", title }).then((created) => created.sessionId),
      ),
    ),
  );
  agent.destroy();
  // Completion is read from the session list (one request per poll), so the
  // figure measures the server's turns rather than 500 client streams.
  for (;;) {
    const listed = await listAll(url, title);
    const waiting = listed.filter((session) => ids.has(session.id) && session.status === "waiting").length;
    if (waiting === count) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * `count` conversations, `concurrency` at a time, each as bench/peers drives
 * one: `POST /v1/session {message}`, then its stream followed until
 * `turn.completed` (the follower), both through one keep-alive agent.
 * Turns per second over the whole load, and the p99 of a conversation.
 */
export async function followedConversations(url: string, count: number, concurrency: number, title: string): Promise<{ turnsPerSecond: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  const turns: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const at = performance.now();
        const created = await postJson<{ sessionId: string }>(agent, `${url}/v1/session`, { message: "hello", title });
        await followWithNodeHttp(`${url}/v1/session/${created.sessionId}/stream`, (event) => event.type === "turn.completed", agent);
        turns.push(performance.now() - at);
      }
    }),
  );
  const turnsPerSecond = count / ((performance.now() - started) / 1000);
  agent.destroy();
  return { turnsPerSecond, p99: percentile(turns, 99) };
}

async function listAll(url: string, title: string): Promise<{ id: string; status: string }[]> {
  type Page = { sessions: { id: string; status: string }[]; nextCursor?: string | null };
  const all: Page["sessions"] = [];
  let cursor: string | null | undefined;
  do {
    const page = (await (await fetch(`${url}/v1/sessions?q=${title}&limit=200${cursor ? `&cursor=${cursor}` : ""}`)).json()) as Page;
    all.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

export function postJson<T>(agent: Agent, target: string, body: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      target,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve(JSON.parse(text) as T));
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Reads an NDJSON stream with node:http (through `agent`, default the global one) until `until` says stop. */
export function followWithNodeHttp(streamUrl: string, until: (event: Event) => boolean, agent?: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    get(streamUrl, { agent }, (response) => {
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let newline = buffer.indexOf("\n");
        while (newline !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim() && until(JSON.parse(line) as Event)) {
            response.destroy();
            resolve();
            return;
          }
          newline = buffer.indexOf("\n");
        }
      });
      response.on("error", reject);
    }).on("error", reject);
  });
}
