import { and, eq, inArray } from "drizzle-orm";
import { newTurnId } from "../protocol/ids.ts";
import type { TokenUsage } from "../protocol/events.ts";
import type { StoreContext } from "./context.ts";
import { preparedInsert, preparedUpdates } from "./prepared.ts";
import { turns } from "./schema.ts";
import type { TurnRow, TurnStatus } from "./types.ts";

export interface TurnCreate {
  id?: string;
  sessionId: string;
  status?: TurnStatus;
  message: string;
  workspaceFiles?: Record<string, string> | null;
  botVersion?: string | null;
  model?: string | null;
  /** A message of it asked to preempt the session's running turn (default false). */
  preempts?: boolean;
  /** Defaults to the store clock. */
  createdAt?: string;
}

export type TurnPatch = Partial<
  Pick<TurnRow, "status" | "message" | "workspaceFiles" | "model" | "botVersion" | "startedAt" | "endedAt" | "usage" | "preempts">
>;

export interface TurnsRepository {
  create(input: TurnCreate): TurnRow;
  get(id: string): TurnRow | undefined;
  update(id: string, patch: TurnPatch): TurnRow | undefined;
  /** Oldest first, so queued turns come out in admission order. */
  listByStatus(status: TurnStatus | readonly TurnStatus[], options?: { sessionId?: string }): TurnRow[];
}

type Stored = typeof turns.$inferSelect;

export const toRow = (r: Stored): TurnRow => ({
  ...r,
  workspaceFiles: (r.workspaceFiles as Record<string, string> | null) ?? null,
  usage: (r.usage as TokenUsage | null) ?? null,
});

export function turnValues(input: TurnCreate, now: string) {
  return {
    id: input.id ?? newTurnId(),
    sessionId: input.sessionId,
    status: input.status ?? "queued",
    message: input.message,
    workspaceFiles: input.workspaceFiles ?? null,
    botVersion: input.botVersion ?? null,
    model: input.model ?? null,
    preempts: input.preempts ?? false,
    createdAt: input.createdAt ?? now,
  };
}

export function createTurnsRepository(ctx: StoreContext): TurnsRepository {
  const { db } = ctx;
  const insert = preparedInsert<Stored>(db, turns, ["id", "sessionId", "status", "message", "workspaceFiles", "botVersion", "model", "preempts", "createdAt"]);
  const updateRow = preparedUpdates<Stored>(db, turns, turns.id);
  return {
    create(input) {
      return toRow(insert(turnValues(input, ctx.now())));
    },

    get(id) {
      const row = db.select().from(turns).where(eq(turns.id, id)).get();
      return row && toRow(row);
    },

    update(id, patch) {
      const row = updateRow(id, patch);
      return row && toRow(row);
    },

    listByStatus(status, options = {}) {
      const statuses = typeof status === "string" ? [status] : [...status];
      const where = options.sessionId
        ? and(inArray(turns.status, statuses), eq(turns.sessionId, options.sessionId))
        : inArray(turns.status, statuses);
      return db.select().from(turns).where(where).orderBy(turns.createdAt, turns.id).all().map(toRow);
    },
  };
}
