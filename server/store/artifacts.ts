import { and, type Column, desc, eq, getTableColumns, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";
import { ulid } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { ownedBy } from "./owned-by.ts";
import { artifacts, sessions } from "./schema.ts";
import type { ArtifactContents, ArtifactRow } from "./types.ts";

export interface ArtifactInput {
  kind: string;
  key: string;
  title: string;
  data?: unknown;
  contents?: string | Uint8Array | null;
  contentType?: string | null;
  sessionId?: string | null;
}

export interface ArtifactListFilter {
  kind?: string;
  key?: string;
  limit?: number;
  /** Only records this principal owns or nobody owns. */
  visibleTo?: Principal;
}

export interface ArtifactsRepository {
  /**
   * Creates the record, or updates the one of the same owner (the tagging
   * session's principal, or nobody) with the same kind + key, keeping its id.
   * Another owner's record of that kind + key is never touched.
   */
  upsert(input: ArtifactInput): ArtifactRow;
  get(id: string): ArtifactRow | undefined;
  /** Most recently updated first; with `visibleTo`, only records that principal owns or nobody owns. */
  list(filter?: ArtifactListFilter): ArtifactRow[];
  contents(id: string): ArtifactContents | undefined;
  delete(id: string): boolean;
  /** Deletes the oldest-updated records beyond the newest `max`; returns how many went. */
  evictBeyond(max: number): number;
}

export const DEFAULT_LIMIT = 100;

/** The columns of the `artifacts_owner_kind_key` unique index (schema.ts), as the upsert names its conflict target. */
const ownerKindKey = [artifacts.kind, artifacts.key, sql`coalesce(${artifacts.ownerType}, '')`, sql`coalesce(${artifacts.ownerId}, '')`];

/** Every column of either dialect's table but the contents, which may be large and are read on demand. */
export function recordColumnsOf<T extends { contents: Column }>({ contents, ...columns }: T) {
  // length() of a blob (SQLite) or a bytea (Postgres) is its size in bytes.
  return { ...columns, size: sql<number | null>`length(${contents})` };
}

const recordColumns = recordColumnsOf(getTableColumns(artifacts));

type Selected = Omit<ArtifactRow, "owner"> & { ownerType: Principal["type"] | null; ownerId: string | null };

export const toRow = ({ ownerType, ownerId, ...r }: Selected): ArtifactRow => ({
  ...r,
  data: r.data ?? null,
  owner: ownerType && ownerId ? { type: ownerType, id: ownerId } : null,
});

/** A list's filter, the same SQL on both dialects (either dialect's table). */
export function listWhere(
  columns: { kind: Column; key: Column; ownerType: Column; ownerId: Column },
  filter: ArtifactListFilter,
): SQL | undefined {
  return and(
    filter.kind === undefined ? undefined : eq(columns.kind, filter.kind),
    filter.key === undefined ? undefined : eq(columns.key, filter.key),
    filter.visibleTo === undefined ? undefined : or(isNull(columns.ownerId), ownedBy({ type: columns.ownerType, id: columns.ownerId }, filter.visibleTo)),
  );
}

/** What an upsert writes on insert and on update alike. */
export function artifactFields(input: ArtifactInput, owner: Principal | undefined, now: string) {
  return {
    title: input.title,
    data: input.data ?? null,
    contents: toBuffer(input.contents),
    contentType: input.contentType ?? null,
    sessionId: input.sessionId ?? null,
    ownerType: owner?.type ?? null,
    ownerId: owner?.id ?? null,
    updatedAt: now,
  };
}

function toBuffer(contents: string | Uint8Array | null | undefined): Buffer | null {
  if (contents == null) return null;
  return typeof contents === "string" ? Buffer.from(contents, "utf8") : Buffer.from(contents);
}

export function createArtifactsRepository(ctx: StoreContext): ArtifactsRepository {
  const { db } = ctx;
  return {
    upsert(input) {
      const now = ctx.now();
      // The tagging session's principal owns the record, and keeps it after the session is deleted.
      const owner = input.sessionId
        ? db.select({ type: sessions.principalType, id: sessions.principalId }).from(sessions).where(eq(sessions.id, input.sessionId)).get()
        : undefined;
      const fields = artifactFields(input, owner, now);
      const [row] = db
        .insert(artifacts)
        .values({ id: `art_${ulid()}`, kind: input.kind, key: input.key, createdAt: now, ...fields })
        .onConflictDoUpdate({ target: ownerKindKey, set: fields })
        .returning(recordColumns)
        .all();
      return toRow(row);
    },

    get(id) {
      const row = db.select(recordColumns).from(artifacts).where(eq(artifacts.id, id)).get();
      return row && toRow(row);
    },

    list(filter = {}) {
      return db
        .select(recordColumns)
        .from(artifacts)
        .where(listWhere(artifacts, filter))
        .orderBy(desc(artifacts.updatedAt), desc(artifacts.id))
        .limit(filter.limit ?? DEFAULT_LIMIT)
        .all()
        .map(toRow);
    },

    contents(id) {
      const row = db
        .select({ contents: artifacts.contents, contentType: artifacts.contentType })
        .from(artifacts)
        .where(eq(artifacts.id, id))
        .get();
      return row?.contents ? { contents: row.contents, contentType: row.contentType } : undefined;
    },

    delete(id) {
      return db.delete(artifacts).where(eq(artifacts.id, id)).run().changes === 1;
    },

    evictBeyond(max) {
      const keep = db.select({ id: artifacts.id }).from(artifacts).orderBy(desc(artifacts.updatedAt), desc(artifacts.id)).limit(max);
      return db.delete(artifacts).where(sql`${artifacts.id} not in ${keep}`).run().changes;
    },
  };
}
