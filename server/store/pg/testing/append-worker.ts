/**
 * Test support: one node writing one session on Postgres, as a process of
 * its own. Takes the session's lease (waiting while another holder's runs),
 * then appends `<holder> <n>` messages, heartbeating after each, until it
 * has appended `count` (prints `done`) or is refused (`refused: …`).
 * Prints `acquired <token>` first and `appended <index>` per event.
 * argv: <databaseUrl> <sessionId> <holder> <ttlMs> <count>
 */
import { createPgEventLog } from "../event-log.ts";
import { LeaseLostError } from "../lease-lost.ts";
import { createSessionOwners } from "../session-owners.ts";
import { openPgStore } from "../store.ts";

const [url, sessionId, holder, ttlMs, count] = process.argv.slice(2);
const ttl = Number(ttlMs);
// A node paused mid-append must not hold the session's row lock for ever: the server ends its transaction.
const store = await openPgStore(url, { maxConnections: 2, idleInTransactionMs: 1000 });
const { pool } = store;
pool.on("error", (error) => console.log(`pool error: ${error.message}`));
const owners = createSessionOwners(pool);
const log = createPgEventLog(pool);

let lease = await owners.acquire(sessionId, holder, ttl);
while (!lease) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  lease = await owners.acquire(sessionId, holder, ttl);
}
console.log(`acquired ${lease.token}`);
try {
  for (let n = 0; n < Number(count); n++) {
    const [event] = await log.append(lease, [{ type: "message.received", data: { message: `${holder} ${n}` } }]);
    console.log(`appended ${event.index}`);
    if (!(await owners.heartbeat(lease, ttl))) throw new LeaseLostError(lease.sessionId, lease.token, "the heartbeat was refused");
  }
  console.log("done");
} catch (error) {
  // One line: a driver error's message spans several (the query, then its parameters), and the test reads the last line printed.
  const firstLine = (message: string) => message.split("\n")[0];
  console.log(error instanceof LeaseLostError ? `refused: ${firstLine(error.message)}` : `failed: ${firstLine((error as Error).message)}`);
}
await store.close();
