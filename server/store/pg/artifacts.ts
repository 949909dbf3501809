import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import { ulid } from "../../protocol/ids.ts";
import { artifactFields, DEFAULT_LIMIT, listWhere, recordColumnsOf, toRow, type ArtifactsRepository } from "../artifacts.ts";
import type { AsyncRepository } from "../async-store.ts";
import type { PgContext } from "./context.ts";
import { artifacts, sessions } from "./schema.ts";

/** The columns of the `artifacts_owner_kind_key` unique constraint (schema.ts), as the upsert names its conflict target. */
const ownerKindKey = [artifacts.kind, artifacts.key, artifacts.ownerType, artifacts.ownerId];

const recordColumns = recordColumnsOf(getTableColumns(artifacts));

export function createPgArtifactsRepository(ctx: PgContext): AsyncRepository<ArtifactsRepository> {
  const { db } = ctx;
  return {
    async upsert(input) {
      const now = ctx.now();
      const [owner] = input.sessionId
        ? await db.select({ type: sessions.principalType, id: sessions.principalId }).from(sessions).where(eq(sessions.id, input.sessionId))
        : [];
      const fields = artifactFields(input, owner, now);
      const [row] = await db
        .insert(artifacts)
        .values({ id: `art_${ulid()}`, kind: input.kind, key: input.key, createdAt: now, ...fields })
        .onConflictDoUpdate({ target: ownerKindKey, set: fields })
        .returning(recordColumns);
      return toRow(row);
    },

    async get(id) {
      const [row] = await db.select(recordColumns).from(artifacts).where(eq(artifacts.id, id));
      return row && toRow(row);
    },

    async list(filter = {}) {
      const rows = await db
        .select(recordColumns)
        .from(artifacts)
        .where(listWhere(artifacts, filter))
        .orderBy(desc(artifacts.updatedAt), desc(artifacts.id))
        .limit(filter.limit ?? DEFAULT_LIMIT);
      return rows.map(toRow);
    },

    async contents(id) {
      const [row] = await db
        .select({ contents: artifacts.contents, contentType: artifacts.contentType })
        .from(artifacts)
        .where(eq(artifacts.id, id));
      return row?.contents ? { contents: row.contents, contentType: row.contentType } : undefined;
    },

    async delete(id) {
      return (await db.delete(artifacts).where(eq(artifacts.id, id))).rowCount === 1;
    },

    async evictBeyond(max) {
      const keep = db.select({ id: artifacts.id }).from(artifacts).orderBy(desc(artifacts.updatedAt), desc(artifacts.id)).limit(max);
      return (await db.delete(artifacts).where(sql`${artifacts.id} not in ${keep}`)).rowCount ?? 0;
    },
  };
}
