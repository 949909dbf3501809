import { and, desc, gte, inArray } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { logs } from "./schema.ts";
import type { LogLevel, LogRow } from "./types.ts";

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export interface LogQuery {
  /** Lines at or after this ISO time. */
  since?: string;
  /** Minimum severity: "warn" returns warn and error lines. */
  level?: LogLevel;
  /** The most recent `limit` matching lines (default 200). */
  limit?: number;
}

export interface LogsRepository {
  append(level: LogLevel, msg: string, data?: Record<string, unknown>): LogRow;
  /** Oldest first. */
  list(query?: LogQuery): LogRow[];
}

const DEFAULT_LIMIT = 200;

type Stored = typeof logs.$inferSelect;

const toRow = (r: Stored): LogRow => ({ ...r, data: (r.data as Record<string, unknown> | null) ?? null });

export function createLogsRepository(ctx: StoreContext): LogsRepository {
  const { db } = ctx;
  return {
    append(level, msg, data) {
      const [row] = db
        .insert(logs)
        .values({ at: ctx.now(), level, msg, data: data ?? null })
        .returning()
        .all();
      return toRow(row);
    },

    list(query = {}) {
      const levels = query.level ? LOG_LEVELS.slice(LOG_LEVELS.indexOf(query.level)) : undefined;
      const rows = db
        .select()
        .from(logs)
        .where(
          and(
            query.since === undefined ? undefined : gte(logs.at, query.since),
            levels === undefined ? undefined : inArray(logs.level, [...levels]),
          ),
        )
        .orderBy(desc(logs.id))
        .limit(query.limit ?? DEFAULT_LIMIT)
        .all();
      return rows.reverse().map(toRow);
    },
  };
}
