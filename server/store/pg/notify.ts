/**
 * Other nodes' appends, as wake-ups for this node's followers (issue 16
 * item 3). Every append queues `NOTIFY bdk_events, '<session> <head>'`
 * (events.ts), delivered on commit. This node holds ONE connection that
 * LISTENs (opened when the first follower watches; reopened with backoff
 * when it drops) and wakes the followers of the named session. A
 * notification is a hint, never the carrier: the follower reads the events
 * from the table. Notifications sent while the connection was down are
 * lost, so a poll (one query for every watched session) stands in for them
 * every `pollMs`, and once at each reconnect: a lost notification delays an
 * event by at most `pollMs`, never loses it.
 *
 * The same connection LISTENs on `bdk_sessions` (`'<session>'`): a change
 * in who may run the session's turns (a lease released, a queued turn that
 * asks to preempt: session-owners.ts, the turns trigger). Its watchers
 * (turn-lease.ts) poll on their own, so this channel has no poll here; each
 * reconnect wakes them all, for what was sent while nobody listened.
 *
 * A connection a NAT or load balancer dropped while idle, or one left
 * half-open by a failover, ends with no `error` and no `end`: TCP keepalive
 * and a `SELECT 1` every `healthMs` (failing, or unanswered within
 * `connectTimeoutMs`) find it, and it is dropped and reopened like any other.
 * With nobody watching, a dropped connection is not reopened until the next
 * watch.
 */
import pg from "pg";
import { nodeId } from "../../host/node-id.ts";
import { messageOf } from "../../protocol/errors.ts";
import type { SharedStore } from "../multi-node.ts";

export const EVENTS_CHANNEL = "bdk_events";
export const SESSIONS_CHANNEL = "bdk_sessions";

export interface PgAppendWatchOptions {
  /**
   * false: no LISTEN connection, the poll alone wakes followers (behind a
   * PgBouncer in transaction pooling mode, where LISTEN does not work).
   */
  listen?: boolean;
  /** How often the watched sessions' heads are polled (default 1000 ms). */
  pollMs?: number;
  /** Why the LISTEN connection or a poll failed (it retries on its own). */
  warn?: (message: string) => void;
  /** How long opening the LISTEN connection, or its health check, may take before it counts as dropped (default 10 s). */
  connectTimeoutMs?: number;
  /** How often the LISTEN connection is checked with `SELECT 1` (default 30 s). */
  healthMs?: number;
}

export interface PgAppendWatch {
  watchAppends: SharedStore["watchAppends"];
  /** Calls `wake()` when the session's lease or queued turns may have changed on another node; a hint: re-read the table. */
  watchSession(sessionId: string, wake: () => void): () => void;
  close(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

/** `'<session id> <head>'` as events.ts sends it; undefined for anything else. */
export function parseNotification(payload: string | undefined): { sessionId: string; head: number } | undefined {
  const at = payload?.lastIndexOf(" ") ?? -1;
  if (!payload || at <= 0) return undefined;
  const head = Number(payload.slice(at + 1));
  return Number.isInteger(head) ? { sessionId: payload.slice(0, at), head } : undefined;
}

export function watchPgAppends(pool: pg.Pool, url: string, options: PgAppendWatchOptions = {}): PgAppendWatch {
  const pollMs = options.pollMs ?? 1_000;
  const warn = options.warn ?? (() => undefined);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const healthMs = options.healthMs ?? 30_000;
  const watchers = new Map<string, Set<(head: number) => void>>();
  const sessionWatchers = new Map<string, Set<() => void>>();
  let listener: pg.Client | undefined;
  let connecting = false;
  let backoff = MIN_BACKOFF_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let healthTimer: NodeJS.Timeout | undefined;
  let polling = false;
  let closed = false;

  const wake = (sessionId: string, head: number) => {
    for (const watcher of watchers.get(sessionId) ?? []) watcher(head);
  };

  const poll = async () => {
    if (polling || closed || watchers.size === 0) return;
    polling = true;
    try {
      const { rows } = await pool.query<{ id: string; last_index: number }>("SELECT id, last_index FROM sessions WHERE id = ANY($1::text[])", [
        [...watchers.keys()],
      ]);
      for (const row of rows) wake(row.id, row.last_index);
    } catch (error) {
      warn(`Could not poll the event heads of followed sessions: ${messageOf(error)}`);
    } finally {
      polling = false;
    }
  };

  const watched = () => watchers.size > 0 || sessionWatchers.size > 0;

  const dropListener = (client: pg.Client, error?: unknown) => {
    if (listener !== client) return;
    listener = undefined;
    clearInterval(healthTimer);
    healthTimer = undefined;
    client.removeAllListeners("notification");
    void client.end().catch(() => undefined);
    if (closed || !watched()) return;
    if (error) warn(`The LISTEN connection for live events from other nodes dropped (${messageOf(error)}); reconnecting in ${backoff} ms, polling meanwhile.`);
    reconnectTimer = setTimeout(connect, backoff);
    reconnectTimer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  };

  async function connect(): Promise<void> {
    reconnectTimer = undefined;
    if (closed || listener || connecting || !watched()) return;
    connecting = true;
    // Named after the node, so pg_stat_activity shows whose it is.
    const client = new pg.Client({
      connectionString: url,
      application_name: `bdk listen ${nodeId()}`,
      keepAlive: true,
      // Probes from 10 s idle on, not after the OS default of two hours.
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    listener = client;
    client.on("error", (error) => dropListener(client, error));
    client.on("end", () => dropListener(client, new Error("connection ended")));
    client.on("notification", (message) => {
      if (message.channel === SESSIONS_CHANNEL) {
        for (const watcher of sessionWatchers.get(message.payload ?? "") ?? []) watcher();
        return;
      }
      const parsed = message.channel === EVENTS_CHANNEL ? parseNotification(message.payload) : undefined;
      if (parsed) wake(parsed.sessionId, parsed.head);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${SESSIONS_CHANNEL}`);
      backoff = MIN_BACKOFF_MS;
      checkHealth(client);
      // What was appended, or changed hands, while no connection listened.
      void poll();
      for (const set of sessionWatchers.values()) for (const watcher of set) watcher();
    } catch (error) {
      dropListener(client, error);
    } finally {
      connecting = false;
    }
  }

  /** Drops `client` when a `SELECT 1` fails or goes unanswered: a silently dead connection delivers no notifications and raises no error. */
  const checkHealth = (client: pg.Client) => {
    let checking = false;
    healthTimer = setInterval(() => {
      if (checking) return;
      checking = true;
      let timeout: NodeJS.Timeout | undefined;
      const unanswered = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(new Error(`no answer to a health check within ${connectTimeoutMs} ms`)), connectTimeoutMs);
      });
      Promise.race([client.query("SELECT 1"), unanswered])
        .catch((error: unknown) => dropListener(client, error))
        .finally(() => {
          clearTimeout(timeout);
          checking = false;
        });
    }, healthMs);
    healthTimer.unref();
  };

  /** With nobody left watching, a pending reconnect is called off (the next watch listens again). */
  const unwatched = () => {
    if (watched() || !reconnectTimer) return;
    clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
  };

  const listen = () => {
    if (!closed && options.listen !== false && !listener && !reconnectTimer) void connect();
  };

  return {
    watchAppends(sessionId, watcher) {
      const set = watchersOf(watchers, sessionId);
      set.add(watcher);
      listen();
      if (!closed && !pollTimer) {
        pollTimer = setInterval(() => void poll(), pollMs);
        pollTimer.unref();
      }
      return () => {
        set.delete(watcher);
        if (set.size === 0 && watchers.get(sessionId) === set) watchers.delete(sessionId);
        if (watchers.size === 0 && pollTimer) {
          clearInterval(pollTimer);
          pollTimer = undefined;
        }
        unwatched();
      };
    },

    watchSession(sessionId, watcher) {
      const set = watchersOf(sessionWatchers, sessionId);
      set.add(watcher);
      listen();
      return () => {
        set.delete(watcher);
        if (set.size === 0 && sessionWatchers.get(sessionId) === set) sessionWatchers.delete(sessionId);
        unwatched();
      };
    },

    async close() {
      closed = true;
      if (pollTimer) clearInterval(pollTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      clearInterval(healthTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}

function watchersOf<T>(watchers: Map<string, Set<T>>, sessionId: string): Set<T> {
  let set = watchers.get(sessionId);
  if (!set) {
    set = new Set();
    watchers.set(sessionId, set);
  }
  return set;
}
