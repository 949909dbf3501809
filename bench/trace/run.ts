/**
 * What the Trace tab's stored model calls cost: bytes in `model_calls` for
 * one long chat session against what storing every step's whole request
 * would take, the time to read a late turn's trace back, and a fork at the
 * last message until it is stored, with its inherited turns' records copied
 * in the database (`copyToFork`) against reading them and appending them
 * again through the process.
 * Run: npx tsx bench/trace/run.ts [turns=200]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { openAgent } from "../../server/host/open-agent.ts";
import type { AsyncTransaction } from "../../server/store/async-store.ts";

const count = Number(process.argv[2] ?? 200);
const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-bench-trace-"));
const opened = await openAgent(path.resolve(import.meta.dirname, "../../bot-examples/pr-approver"), { stateRoot, env: { BDK_MODEL: "scripted" } });
const principal = { type: "user" as const, id: "local" };

const message = (i: number) => `Inspect https://github.com/acme/checkout/pull/${i}`;
const first = await opened.runtime.startSession({ message: message(0), principal });
await first.done;
const turnIds = [first.turnId];
for (let i = 1; i < count; i++) {
  const handle = await opened.runtime.followUp(first.sessionId, { message: message(i), principal });
  await handle.done;
  turnIds.push(handle.turnId);
}

const db = new Database(path.join(stateRoot, "bdk.sqlite"), { readonly: true });
const stored = db
  .prepare("SELECT count(*) AS rows, sum(length(request) + length(response) + ifnull(length(system), 0) + ifnull(length(tools), 0)) AS bytes FROM model_calls")
  .get() as { rows: number; bytes: number };
db.close();

let whole = 0;
const started = performance.now();
for (const turnId of turnIds) {
  for (const call of (await opened.runtime.reader.turnTrace(first.sessionId, turnId, principal)).modelCalls) whole += JSON.stringify(call).length;
}
const readAll = performance.now() - started;
const lastStarted = performance.now();
await opened.runtime.reader.turnTrace(first.sessionId, turnIds.at(-1)!, principal);
const readLast = performance.now() - lastStarted;

// A fork at the last message inherits every earlier turn's records, copied in the database.
const events = await opened.runtime.reader.events(first.sessionId, principal);
const lastMessage = events.findLast((event) => event.type === "message.received")!.index;
const forkStarted = performance.now();
const fork = await opened.runtime.fork(first.sessionId, { principal, owner: principal, at: { beforeIndex: lastMessage } });
const forkStored = performance.now() - forkStarted;
await fork.done;
const inherited = turnIds.slice(0, -1).map((turnId) => ({ sourceTurnId: turnId, forkTurnId: turnId }));
const { store } = opened;
const target = async (tx: AsyncTransaction, id: string) => (await tx.sessions.create({ id, mode: "chat", channel: "http", principal })).id;
const copyStarted = performance.now();
const copied = await store.transaction(async (tx) => tx.modelCalls.copyToFork(first.sessionId, await target(tx, "ses_bench_copy"), inherited));
const copyMs = performance.now() - copyStarted;
// The same records through the process, as a fork copied them before `copyToFork`: read whole, encoded and appended again.
const viaJsStarted = performance.now();
await store.transaction(async (tx) => {
  const into = await target(tx, "ses_bench_js");
  for (const { turnId, scope, ...record } of await tx.modelCalls.ofTurns(first.sessionId, turnIds.slice(0, -1))) await tx.modelCalls.append(into, turnId, scope, record);
});
const viaJsMs = performance.now() - viaJsStarted;

console.log(`${count} turns, ${stored.rows} model steps in one session`);
console.log(`stored: ${(stored.bytes / 1024).toFixed(0)} KiB; every step's whole request and response: ${(whole / 1024).toFixed(0)} KiB (${(whole / stored.bytes).toFixed(1)}x)`);
console.log(`trace of the last turn read back in ${readLast.toFixed(1)} ms; all ${count} turns in ${readAll.toFixed(0)} ms`);
console.log(`fork at the last message stored in ${forkStored.toFixed(0)} ms; its ${copied} records copied in the database in ${copyMs.toFixed(1)} ms, through the process (read, encode, append) in ${viaJsMs.toFixed(0)} ms`);
await opened.close();
