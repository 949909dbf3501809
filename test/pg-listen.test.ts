/**
 * The LISTEN connection of a Postgres node (server/store/pg/notify.ts)
 * against a real PostgreSQL, reached through a loopback TCP relay the test
 * controls: a connection that goes silent (as one a NAT dropped, or a
 * failover left half-open: no error, no end) is found by the health check
 * and reopened; a connection that keeps failing is not reopened for ever
 * once nobody watches.
 */
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SESSIONS_CHANNEL, watchPgAppends } from "../server/store/pg/notify.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";

let database: TestDatabase;
let pool: pg.Pool;
const servers: net.Server[] = [];
/** Every socket the relays opened: a silenced one would otherwise hold its database connection open past the drop. */
const sockets: net.Socket[] = [];

beforeAll(async () => {
  database = await testDatabase();
  pool = new pg.Pool({ connectionString: database.url });
}, 300_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const server of servers) server.close();
  await pool?.end();
  await database?.drop();
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A loopback server handling each connection with `handle`; the URL of the database through it. */
async function relay(handle: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer((socket) => {
    sockets.push(socket);
    handle(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(database.url);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return url.toString();
}

/** Forwards to the database; `silence()` stops forwarding on the connections open so far, closing none. */
async function silencingRelay(): Promise<{ url: string; silence(): void }> {
  const target = new URL(database.url);
  const open: { client: net.Socket; upstream: net.Socket }[] = [];
  const url = await relay((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.push(upstream);
    client.pipe(upstream).on("error", () => undefined);
    upstream.pipe(client).on("error", () => undefined);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    open.push({ client, upstream });
  });
  return {
    url,
    silence() {
      for (const { client, upstream } of open.splice(0)) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
  };
}

it("drops a LISTEN connection that stops answering, with no error and no end, and listens again", async () => {
  const through = await silencingRelay();
  const warnings: string[] = [];
  const watch = watchPgAppends(pool, through.url, { healthMs: 100, connectTimeoutMs: 300, warn: (message) => warnings.push(message) });
  let wakes = 0;
  const unwatch = watch.watchSession("s1", () => wakes++);
  try {
    // The first wake is the one every (re)connect gives: the connection LISTENs.
    await until(() => wakes > 0);
    through.silence();
    wakes = 0;
    await until(() => wakes > 0);
    expect(warnings.join("\n")).toContain("no answer to a health check within 300 ms");
    // Listening again: a notification now wakes the watcher.
    wakes = 0;
    await pool.query(`NOTIFY ${SESSIONS_CHANNEL}, 's1'`);
    await until(() => wakes > 0);
  } finally {
    unwatch();
    await watch.close();
  }
}, 20_000);

it("stops reconnecting once nobody watches, and reconnects at the next watch", async () => {
  let attempts = 0;
  const refusing = await relay((socket) => {
    attempts++;
    socket.destroy();
  });
  const watch = watchPgAppends(pool, refusing, {});
  try {
    const unwatch = watch.watchSession("s1", () => undefined);
    // Retried after a failure (backoff 100 ms, then 200 ms, ...).
    await until(() => attempts >= 3);
    unwatch();
    const atUnwatch = attempts;
    // Without the watcher, retries would come 400 and 800 ms later; at most the one already dialling arrives.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(attempts).toBeLessThanOrEqual(atUnwatch + 1);
    const again = attempts;
    const unwatchAgain = watch.watchAppends("s2", () => undefined);
    await until(() => attempts > again);
    unwatchAgain();
  } finally {
    await watch.close();
  }
}, 60_000);
