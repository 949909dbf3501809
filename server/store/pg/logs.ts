import { and, desc, eq, gte, lte } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { DEFAULT_LIMIT, LOG_LEVELS, LOG_RETENTION, PRUNE_SLACK, toRow, type LogsRepository } from "../logs.ts";
import type { LogLevel } from "../types.ts";
import type { PgContext } from "./context.ts";
import { logs } from "./schema.ts";

/** Lines appended per level since the last trim, kept across the repositories a store builds (one per transaction). */
export type TrimCounts = Map<LogLevel, number>;

export function createPgLogsRepository(
  ctx: PgContext,
  sinceTrim: TrimCounts,
  retention: Readonly<Record<LogLevel, number>> = LOG_RETENTION,
): AsyncRepository<LogsRepository> {
  const { db } = ctx;

  const trim = async (level: LogLevel) => {
    const [boundary] = await db
      .select({ id: logs.id })
      .from(logs)
      .where(eq(logs.level, level))
      .orderBy(desc(logs.id))
      .limit(1)
      .offset(retention[level]);
    if (boundary) await db.delete(logs).where(and(eq(logs.level, level), lte(logs.id, boundary.id)));
  };

  return {
    async append(level, msg, data) {
      const [row] = await db.insert(logs).values({ at: ctx.now(), level, msg, data: data ?? null }).returning();
      const count = sinceTrim.get(level);
      if (count === undefined || count >= Math.min(PRUNE_SLACK, retention[level])) {
        sinceTrim.set(level, 0);
        await trim(level);
      } else sinceTrim.set(level, count + 1);
      return toRow(row);
    },

    async list(query = {}) {
      const levels = query.level ? LOG_LEVELS.slice(LOG_LEVELS.indexOf(query.level)) : LOG_LEVELS;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const perLevel = await Promise.all(
        levels.map((level) =>
          db
            .select()
            .from(logs)
            .where(and(eq(logs.level, level), query.since === undefined ? undefined : gte(logs.at, query.since)))
            .orderBy(desc(logs.id))
            .limit(limit),
        ),
      );
      return perLevel
        .flat()
        .sort((a, b) => a.id - b.id)
        .map(toRow);
    },
  };
}
