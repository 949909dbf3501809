/**
 * Test support: a separate process that opens a state root (racing others on
 * migrations), makes sure a shared session exists and appends events to it.
 * argv: <stateRoot> <sessionId> <count> [startAtMs]; waiting for `startAtMs`
 * lines the workers up so their migrations really overlap.
 */
import { openStore } from "../store.ts";
import { sqliteErrorCode } from "../sqlite-error.ts";

const [stateRoot, sessionId, count, startAt] = process.argv.slice(2);
const wait = Number(startAt ?? 0) - Date.now();
if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
const store = openStore(stateRoot);
try {
  store.sessions.create({ id: sessionId, mode: "chat", channel: "http", principal: { type: "user", id: "local" } });
} catch (error) {
  if (sqliteErrorCode(error) !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
}
for (let i = 0; i < Number(count); i++) {
  store.events.append(sessionId, [{ type: "step.started", data: { step: process.pid * 100_000 + i } }]);
}
store.close();
