import { and, asc, eq, gte, sql } from "drizzle-orm";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, BdkEvent, EventDraft } from "../protocol/events.ts";
import type { StoreContext } from "./context.ts";
import { events } from "./schema.ts";
import { appendTrace, formatRanges, type IndexRange, repairTrace, type StoredLines } from "./trace.ts";

export interface EventListOptions {
  /** First index to return; negative counts back from the end (-1 = the last event). Default 0. */
  fromIndex?: number;
  limit?: number;
}

export interface EventsRepository {
  /**
   * Stores the drafts with the next gap-free indexes (one write transaction,
   * safe with several processes), then copies them to the trace file.
   * Throws `not_found` for an unknown session.
   *
   * `fencingToken`: the appender's session lease (turn-lease.ts). A store
   * nodes share stores nothing unless that token still holds the lease,
   * checked in the append itself; this one has a single owning process
   * (the process lock), so there is no other holder to refuse and it is
   * not read.
   */
  append(sessionId: string, drafts: readonly EventDraft[], fencingToken?: number): AnyBdkEvent[];
  list(sessionId: string, options?: EventListOptions): AnyBdkEvent[];
  /** Batches in index order until the end, including events appended meanwhile. */
  iterate(sessionId: string, fromIndex?: number, batchSize?: number): Generator<AnyBdkEvent[], void, undefined>;
  /**
   * The same events as `iterate`, already serialised as NDJSON lines straight
   * from the stored JSON (no parse/stringify round trip): the replay fast path.
   */
  iterateNdjson(sessionId: string, fromIndex?: number, batchSize?: number): Generator<NdjsonBatch, void, undefined>;
  /** -1 when the session has no events (or does not exist). */
  lastIndex(sessionId: string): number;
  /** Whether the session has an event of `type` stamped with `turnId`. */
  hasTurnEvent(sessionId: string, turnId: string, type: BdkEvent["type"]): boolean;
  /** The events of `type` stamped with `turnId`, in index order. */
  turnEvents<T extends BdkEvent["type"]>(sessionId: string, turnId: string, type: T): Extract<AnyBdkEvent, { type: T }>[];
  /**
   * Restores the lines missing from the trace files of the sessions among the
   * last `recentEvents` stored events (those a crash can have cut short).
   * Returns the sessions it repaired.
   */
  repairRecentTraces(recentEvents?: number): string[];
  /**
   * Restores the lines missing from one session's trace file (every line
   * checked with `whole`, else from its tail); returns the ranges restored.
   */
  repairTrace(sessionId: string, options?: { whole?: boolean }): IndexRange[];
}

/** How many of the last stored events `repairRecentTraces` looks at: a crash can only have cut those short. */
export const RECENT_EVENTS_CHECKED = 500;

export const DEFAULT_BATCH = 1000;

/** NDJSON text of consecutive events, and the index of the last one. */
export interface NdjsonBatch {
  text: string;
  lastIndex: number;
}

type Stored = typeof events.$inferSelect;
export type RawRow = [idx: number, type: string, turnId: string | null, at: string, data: string];

/** Key order matches JSON.stringify of a live event: type, index, sessionId, turnId?, at, data. */
export function rowsToNdjson(sessionJson: string, rows: readonly RawRow[]): string {
  let text = "";
  for (const [idx, type, turnId, at, data] of rows) {
    const turn = turnId === null ? "" : `"turnId":${JSON.stringify(turnId)},`;
    text += `{"type":${JSON.stringify(type)},"index":${idx},"sessionId":${sessionJson},${turn}"at":${JSON.stringify(at)},"data":${data}}\n`;
  }
  return text;
}

export function toEvent(r: Stored): AnyBdkEvent {
  const event: BdkEvent = r.turnId
    ? { type: r.type as BdkEvent["type"], index: r.idx, sessionId: r.sessionId, turnId: r.turnId, at: r.at, data: r.data as never }
    : { type: r.type as BdkEvent["type"], index: r.idx, sessionId: r.sessionId, at: r.at, data: r.data as never };
  return event as AnyBdkEvent;
}

export function createEventsRepository(ctx: StoreContext, warn: (message: string) => void): EventsRepository {
  const { db, sqlite } = ctx;
  // The append path runs for every event of every turn: raw prepared statements, no query building.
  const selectLast = sqlite.prepare("SELECT last_index FROM sessions WHERE id = ?").pluck(true);
  const insertEvent = sqlite.prepare(
    "INSERT INTO events (session_id, idx, type, turn_id, at, data) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const updateLast = sqlite.prepare("UPDATE sessions SET last_index = ?, updated_at = ? WHERE id = ?");
  const selectFrom = db
    .select()
    .from(events)
    .where(and(eq(events.sessionId, sql.placeholder("sessionId")), gte(events.idx, sql.placeholder("fromIndex"))))
    .orderBy(asc(events.idx))
    .limit(sql.placeholder("limit"))
    .prepare();

  const lastIndex = (sessionId: string): number => (selectLast.get(sessionId) as number | undefined) ?? -1;
  const selectTurnEvent = sqlite
    .prepare("SELECT 1 FROM events WHERE session_id = ? AND turn_id = ? AND type = ? LIMIT 1")
    .pluck(true);
  const selectRaw = sqlite
    .prepare("SELECT idx, type, turn_id, at, data FROM events WHERE session_id = ? AND idx >= ? ORDER BY idx LIMIT ?")
    .raw(true);

  const insertAll = sqlite.transaction((sessionId: string, drafts: readonly EventDraft[]): AnyBdkEvent[] => {
    const current = selectLast.get(sessionId) as number | undefined;
    if (current === undefined) throw new BdkError("not_found", `Session ${sessionId} not found.`);
    const stored: AnyBdkEvent[] = [];
    let index = current;
    let at = "";
    for (const draft of drafts) {
      index++;
      at = ctx.now();
      const turnId = draft.turnId ?? null;
      insertEvent.run(sessionId, index, draft.type, turnId, at, JSON.stringify(draft.data));
      stored.push(toEvent({ sessionId, idx: index, type: draft.type, turnId, at, data: draft.data }));
    }
    updateLast.run(index, at, sessionId);
    return stored;
  });

  const selectRecentSessions = sqlite.prepare("SELECT session_id FROM events ORDER BY rowid DESC LIMIT ?").pluck(true);
  const storedLines: StoredLines = (sessionId, range) => {
    let text = "";
    const sessionJson = JSON.stringify(sessionId);
    for (let next = range.from; next <= range.to; next += DEFAULT_BATCH) {
      const rows = selectRaw.all(sessionId, next, Math.min(DEFAULT_BATCH, range.to - next + 1)) as RawRow[];
      text += rowsToNdjson(sessionJson, rows.filter((row) => row[0] <= range.to));
    }
    return text;
  };
  const repairOne = (sessionId: string, options?: { whole?: boolean }): IndexRange[] =>
    repairTrace(ctx.stateRoot, sessionId, lastIndex(sessionId), storedLines, options);

  const resolveFrom = (sessionId: string, fromIndex: number): number =>
    fromIndex < 0 ? Math.max(0, lastIndex(sessionId) + 1 + fromIndex) : fromIndex;

  return {
    append(sessionId, drafts) {
      if (drafts.length === 0) return [];
      // IMMEDIATE takes the write lock before reading last_index, so two processes never pick the same index.
      const stored = insertAll.immediate(sessionId, drafts);
      // Inside a wider transaction the copy waits for its commit: a rollback leaves nothing in the trace.
      ctx.tx.afterCommit(() => {
        try {
          appendTrace(ctx.stateRoot, stored, storedLines);
        } catch (error) {
          warn(`Could not copy events of ${sessionId} to its trace file: ${messageOf(error)}`);
        }
      });
      return stored;
    },

    list(sessionId, options = {}) {
      const fromIndex = resolveFrom(sessionId, options.fromIndex ?? 0);
      return selectFrom.all({ sessionId, fromIndex, limit: options.limit ?? -1 }).map(toEvent);
    },

    *iterate(sessionId, fromIndex = 0, batchSize = DEFAULT_BATCH) {
      let next = resolveFrom(sessionId, fromIndex);
      for (;;) {
        const batch = selectFrom.all({ sessionId, fromIndex: next, limit: batchSize }).map(toEvent);
        if (batch.length === 0) return;
        yield batch;
        if (batch.length < batchSize) return;
        next = batch[batch.length - 1].index + 1;
      }
    },

    *iterateNdjson(sessionId, fromIndex = 0, batchSize = DEFAULT_BATCH) {
      let next = resolveFrom(sessionId, fromIndex);
      const sessionJson = JSON.stringify(sessionId);
      for (;;) {
        const rows = selectRaw.all(sessionId, next, batchSize) as RawRow[];
        if (rows.length === 0) return;
        const last = rows[rows.length - 1][0];
        yield { text: rowsToNdjson(sessionJson, rows), lastIndex: last };
        if (rows.length < batchSize) return;
        next = last + 1;
      }
    },

    lastIndex,

    hasTurnEvent(sessionId, turnId, type) {
      return selectTurnEvent.get(sessionId, turnId, type) !== undefined;
    },

    turnEvents(sessionId, turnId, type) {
      const rows = db
        .select()
        .from(events)
        .where(and(eq(events.sessionId, sessionId), eq(events.turnId, turnId), eq(events.type, type)))
        .orderBy(asc(events.idx))
        .all();
      return rows.map(toEvent) as never;
    },

    repairRecentTraces(recentEvents = RECENT_EVENTS_CHECKED) {
      const sessionIds = new Set(selectRecentSessions.all(recentEvents) as string[]);
      const repaired: string[] = [];
      for (const sessionId of sessionIds) {
        try {
          const restored = repairOne(sessionId);
          if (restored.length > 0) {
            repaired.push(sessionId);
            warn(`Restored events ${formatRanges(restored)} of ${sessionId} to its trace file from the database.`);
          }
        } catch (error) {
          warn(`Could not repair the trace file of ${sessionId}: ${messageOf(error)}`);
        }
      }
      return repaired;
    },

    repairTrace: repairOne,
  };
}
