import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import { checkSchema } from "../authoring/validate-schema.ts";
import type { ArtifactsApi } from "../authoring/types.ts";
import { BdkError } from "../protocol/errors.ts";
import type { AsyncStore } from "../store/async-store.ts";

const DEFAULT_MAX = 1000;

export interface ArtifactsApiOptions {
  store: AsyncStore;
  registry?: ArtifactsDefinition;
  sessionId?: string;
  /** Called after each tag, to record `artifact.tagged` on the session. */
  onTagged?(artifact: { id: string; kind: string; key: string; title: string }): Promise<unknown>;
}

/**
 * `ctx.artifacts`: tag creates or updates by owner + kind + key (the owner is
 * the session's principal). With a registry, undeclared kinds are refused and
 * `data` is parsed by the kind's schema.
 */
export function createArtifactsApi(options: ArtifactsApiOptions): ArtifactsApi {
  const { store, registry } = options;
  return {
    async tag(input) {
      let data = input.data;
      if (registry) {
        const kind = registry.kinds[input.kind];
        if (!kind) {
          const declared = Object.keys(registry.kinds).join(", ") || "none";
          throw new BdkError("invalid_request", `Unknown artifact kind "${input.kind}" (declared: ${declared}).`);
        }
        if (kind.schema && data !== undefined) {
          const checked = checkSchema(kind.schema, data);
          if (!checked.ok) {
            throw new BdkError("invalid_request", `Artifact data for kind "${input.kind}" is invalid: ${checked.message}`);
          }
          data = checked.value;
        }
      }
      const row = await store.artifacts.upsert({ ...input, data, sessionId: options.sessionId ?? null });
      await store.artifacts.evictBeyond(registry?.max ?? DEFAULT_MAX);
      await options.onTagged?.({ id: row.id, kind: row.kind, key: row.key, title: row.title });
      return { id: row.id };
    },
    async list(filter) {
      // In a session: what its principal owns and what nobody owns, as the HTTP routes show that principal.
      const owner = options.sessionId ? (await store.sessions.get(options.sessionId))?.principal : undefined;
      return (await store.artifacts.list({ ...filter, ...(owner ? { visibleTo: owner } : {}) })).map((row) => ({
        id: row.id,
        kind: row.kind,
        key: row.key,
        title: row.title,
        data: row.data,
        contentType: row.contentType ?? undefined,
        sessionId: row.sessionId ?? undefined,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      }));
    },
  };
}
