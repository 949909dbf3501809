import { and, type Column, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { BdkError } from "../protocol/errors.ts";
import { ZERO_USAGE, type Principal, type SessionMode, type TokenUsage } from "../protocol/events.ts";
import { newSessionId } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { ownedBy } from "./owned-by.ts";
import { preparedInsert, preparedUpdates } from "./prepared.ts";
import { sessions } from "./schema.ts";
import { sqliteErrorCode } from "./sqlite-error.ts";
import { isFileSafeId, removeTrace } from "./trace.ts";
import type { RunOverrides, SessionFork, SessionRow, SessionStatus } from "./types.ts";

export interface SessionCreate {
  id?: string;
  agent?: string | null;
  title?: string | null;
  mode: SessionMode;
  status?: SessionStatus;
  channel: string;
  principal: Principal;
  continuationToken?: string | null;
  channelState?: unknown;
  purpose?: string | null;
  dryRun?: boolean;
  botVersion?: string | null;
  workspaceDir?: string | null;
  fork?: SessionFork | null;
  /** Defaults to the store clock. */
  createdAt?: string;
  updatedAt?: string;
}

export type SessionPatch = Partial<
  Pick<SessionRow, "agent" | "title" | "status" | "continuationToken" | "channelState" | "purpose" | "botVersion" | "usage">
>;

export interface SessionListQuery {
  /** Only sessions of this principal (type and id); undefined lists every principal's. */
  principal?: Principal;
  /** Case-insensitive substring of the title or the id. */
  q?: string;
  limit?: number;
  cursor?: string | null;
}

export interface SessionPage {
  sessions: SessionRow[];
  nextCursor: string | null;
}

export interface SessionsRepository {
  /** Throws `invalid_request` when the channel already uses the continuation token. */
  create(input: SessionCreate): SessionRow;
  /** Soft-deleted sessions are found only with `includeDeleted`. */
  get(id: string, options?: { includeDeleted?: boolean }): SessionRow | undefined;
  update(id: string, patch: SessionPatch): SessionRow | undefined;
  /** Compare-and-swap of the continuation token; false when `from` is no longer current. */
  rotateToken(id: string, from: string, to: string): boolean;
  /** Newest first (by creation), soft-deleted excluded. */
  list(query?: SessionListQuery): SessionPage;
  listByStatus(status: SessionStatus | readonly SessionStatus[]): SessionRow[];
  findByToken(channel: string, token: string): SessionRow | undefined;
  /** Hides the session and frees its token; its events stay until `delete`. */
  softDelete(id: string): boolean;
  /** Removes the session with its events, turns, approvals and trace file. */
  delete(id: string): boolean;
}

const DEFAULT_PAGE = 50;
const MAX_PAGE = 500;

type Stored = typeof sessions.$inferSelect;

/** A stored row as the plain row (both dialects store the same columns). */
export function toRow(r: Stored): SessionRow {
  return {
    id: r.id,
    agent: r.agent,
    title: r.title,
    mode: r.mode,
    status: r.status,
    channel: r.channel,
    principal: { type: r.principalType, id: r.principalId },
    continuationToken: r.continuationToken,
    channelState: r.channelState ?? null,
    purpose: r.purpose,
    dryRun: r.dryRun,
    botVersion: r.botVersion,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastIndex: r.lastIndex,
    usage: r.usage as TokenUsage,
    workspaceDir: r.workspaceDir,
    fork:
      r.parentId !== null && r.forkedAt !== null
        ? { parentId: r.parentId, forkedAt: r.forkedAt, overrides: (r.overrides ?? {}) as RunOverrides }
        : null,
  };
}

export function createSessionsRepository(ctx: StoreContext): SessionsRepository {
  const { db } = ctx;
  const visible = ne(sessions.status, "deleted");
  const insert = preparedInsert<Stored>(db, sessions, [
    "id",
    "agent",
    "title",
    "mode",
    "status",
    "channel",
    "principalType",
    "principalId",
    "continuationToken",
    "channelState",
    "purpose",
    "dryRun",
    "botVersion",
    "createdAt",
    "updatedAt",
    "usage",
    "workspaceDir",
    "parentId",
    "forkedAt",
    "overrides",
  ]);
  const updateRow = preparedUpdates<Stored>(db, sessions, sessions.id);
  // Every session route reads its session first: prepared once.
  const selectAny = db.select().from(sessions).where(eq(sessions.id, sql.placeholder("id"))).prepare();
  const selectVisible = db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sql.placeholder("id")), visible))
    .prepare();

  return {
    create(input) {
      const values = sessionValues(input, ctx.now());
      try {
        return toRow(insert(values));
      } catch (error) {
        if (sqliteErrorCode(error) === "SQLITE_CONSTRAINT_UNIQUE") throwIfTokenTaken(input);
        throw error;
      }
    },

    get(id, options) {
      const row = (options?.includeDeleted ? selectAny : selectVisible).get({ id });
      return row && toRow(row);
    },

    update(id, patch) {
      const row = updateRow(id, { ...patch, updatedAt: ctx.now() });
      return row && toRow(row);
    },

    rotateToken(id, from, to) {
      const result = db
        .update(sessions)
        .set({ continuationToken: to, updatedAt: ctx.now() })
        .where(and(eq(sessions.id, id), eq(sessions.continuationToken, from), visible))
        .run();
      return result.changes === 1;
    },

    list(query = {}) {
      const limit = pageLimit(query);
      const rows = db
        .select()
        .from(sessions)
        .where(and(visible, ...listFilters(sessions, query)))
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(limit + 1)
        .all();
      return toPage(rows, limit);
    },

    listByStatus(status) {
      const statuses = typeof status === "string" ? [status] : [...status];
      return db
        .select()
        .from(sessions)
        .where(inArray(sessions.status, statuses))
        .orderBy(sessions.createdAt, sessions.id)
        .all()
        .map(toRow);
    },

    findByToken(channel, token) {
      const row = db
        .select()
        .from(sessions)
        .where(and(eq(sessions.channel, channel), eq(sessions.continuationToken, token), visible))
        .get();
      return row && toRow(row);
    },

    softDelete(id) {
      const result = db
        .update(sessions)
        .set({ status: "deleted", continuationToken: null, updatedAt: ctx.now() })
        .where(and(eq(sessions.id, id), visible))
        .run();
      return result.changes === 1;
    },

    delete(id) {
      // Events, turns and approvals go with the row (ON DELETE CASCADE).
      const result = db.delete(sessions).where(eq(sessions.id, id)).run();
      if (isFileSafeId(id)) removeTrace(ctx.stateRoot, id);
      return result.changes === 1;
    },
  };
}

/** The row a create stores, before the dialect's insert. */
export function sessionValues(input: SessionCreate, now: string) {
  const id = input.id ?? newSessionId();
  if (!isFileSafeId(id)) throw new BdkError("invalid_request", `Invalid session id: ${id}`);
  return {
    id,
    agent: input.agent ?? null,
    title: input.title ?? null,
    mode: input.mode,
    status: input.status ?? "idle",
    channel: input.channel,
    principalType: input.principal.type,
    principalId: input.principal.id,
    continuationToken: input.continuationToken ?? null,
    channelState: input.channelState ?? null,
    purpose: input.purpose ?? null,
    dryRun: input.dryRun ?? false,
    botVersion: input.botVersion ?? null,
    createdAt: input.createdAt ?? now,
    updatedAt: input.updatedAt ?? input.createdAt ?? now,
    usage: ZERO_USAGE,
    workspaceDir: input.workspaceDir ?? null,
    parentId: input.fork?.parentId ?? null,
    forkedAt: input.fork?.forkedAt ?? null,
    overrides: input.fork?.overrides ?? null,
  };
}

/** A unique violation on create: the channel's continuation token is taken (the only unique key a caller chooses besides the id). */
export function throwIfTokenTaken(input: SessionCreate): void {
  if (input.continuationToken == null) return;
  throw new BdkError("invalid_request", `Channel ${input.channel} already has a session for this token.`, {
    conflict: "continuation_token",
  });
}

export function pageLimit(query: SessionListQuery): number {
  return Math.min(Math.max(1, Math.floor(query.limit ?? DEFAULT_PAGE)), MAX_PAGE);
}

/** The columns a session list filters on, of either dialect's table (drizzle's SQL is dialect-free). */
interface ListColumns {
  id: Column;
  title: Column;
  createdAt: Column;
  principalType: Column;
  principalId: Column;
}

/** A list query's filters besides visibility (principal, text, cursor), the same SQL on both dialects. */
export function listFilters(columns: ListColumns, query: SessionListQuery): (SQL | undefined)[] {
  const filters: (SQL | undefined)[] = [];
  if (query.principal !== undefined) filters.push(ownedBy({ type: columns.principalType, id: columns.principalId }, query.principal));
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // lower(): LIKE is case-insensitive for ASCII on SQLite, case-sensitive on Postgres.
    filters.push(sql`(lower(${columns.title}) LIKE lower(${pattern}) ESCAPE '\\' OR lower(${columns.id}) LIKE lower(${pattern}) ESCAPE '\\')`);
  }
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor);
    filters.push(or(sql`${columns.createdAt} < ${createdAt}`, and(eq(columns.createdAt, createdAt), sql`${columns.id} < ${id}`)));
  }
  return filters;
}

/** One more row than the page was asked for: whether there is a next page. */
export function toPage(rows: readonly Stored[], limit: number): SessionPage {
  const page = rows.slice(0, limit).map(toRow);
  const last = page[page.length - 1];
  return { sessions: page, nextCursor: rows.length > limit ? encodeCursor(last.createdAt, last.id) : null };
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === "string")) {
      return value as [string, string];
    }
  } catch {
    // fall through to the error below
  }
  throw new BdkError("invalid_request", "Invalid cursor.");
}
