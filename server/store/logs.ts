import { and, desc, eq, gte, lte } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { logs } from "./schema.ts";
import type { LogLevel, LogRow } from "./types.ts";

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/**
 * Lines kept per level. Each level has its own ring, so a flood of debug
 * metric lines (or of 401s at info) never evicts a warning or an error.
 */
export const LOG_RETENTION: Readonly<Record<LogLevel, number>> = { debug: 2_000, info: 5_000, warn: 5_000, error: 5_000 };

/** Pruning deletes in batches: a level is trimmed once it is this far over its cap. */
export const PRUNE_SLACK = 200;

export interface LogQuery {
  /** Lines at or after this ISO time. */
  since?: string;
  /** Minimum severity: "warn" returns warn and error lines. */
  level?: LogLevel;
  /** The most recent `limit` matching lines of each level (default 200), so one noisy level cannot crowd out another. */
  limit?: number;
}

export interface LogsRepository {
  append(level: LogLevel, msg: string, data?: Record<string, unknown>): LogRow;
  /** Oldest first. */
  list(query?: LogQuery): LogRow[];
}

export const DEFAULT_LIMIT = 200;

type Stored = typeof logs.$inferSelect;

export const toRow = (r: Stored): LogRow => ({ ...r, data: (r.data as Record<string, unknown> | null) ?? null });

export function createLogsRepository(ctx: StoreContext, retention: Readonly<Record<LogLevel, number>> = LOG_RETENTION): LogsRepository {
  const { db } = ctx;
  // Lines appended per level since the last trim; the first append of a process trims what earlier ones left.
  const sinceTrim = new Map<LogLevel, number>();

  const trim = (level: LogLevel) => {
    const [boundary] = db
      .select({ id: logs.id })
      .from(logs)
      .where(eq(logs.level, level))
      .orderBy(desc(logs.id))
      .limit(1)
      .offset(retention[level])
      .all();
    if (boundary) db.delete(logs).where(and(eq(logs.level, level), lte(logs.id, boundary.id))).run();
  };

  return {
    append(level, msg, data) {
      const [row] = db
        .insert(logs)
        .values({ at: ctx.now(), level, msg, data: data ?? null })
        .returning()
        .all();
      const count = sinceTrim.get(level);
      if (count === undefined || count >= Math.min(PRUNE_SLACK, retention[level])) {
        trim(level);
        sinceTrim.set(level, 0);
      } else sinceTrim.set(level, count + 1);
      return toRow(row);
    },

    list(query = {}) {
      const levels = query.level ? LOG_LEVELS.slice(LOG_LEVELS.indexOf(query.level)) : LOG_LEVELS;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const rows = levels.flatMap((level) =>
        db
          .select()
          .from(logs)
          .where(and(eq(logs.level, level), query.since === undefined ? undefined : gte(logs.at, query.since)))
          .orderBy(desc(logs.id))
          .limit(limit)
          .all(),
      );
      return rows.sort((a, b) => a.id - b.id).map(toRow);
    },
  };
}
