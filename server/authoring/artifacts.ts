import { brand } from "./brand.ts";
import type { ZodLike } from "./tools.ts";

export interface ArtifactKind {
  description: string;
  /** Validates `data` on tag; the parsed value is stored. */
  schema?: ZodLike;
}

export interface ArtifactsDefinition {
  kinds: Record<string, ArtifactKind>;
  /** Give the model a `tag_artifact` tool. */
  agentTool?: boolean;
  /** Records kept (default 1000); the oldest-updated are evicted. */
  max?: number;
}

/**
 * `bot/artifacts.ts`: the kinds of durable records sessions may tag.
 *
 * @example
 * export default defineArtifacts({ kinds: { review: { description: "A PR review", schema: z.object({ verdict: z.string() }) } } });
 */
export function defineArtifacts<T extends ArtifactsDefinition>(definition: T): T {
  return brand("artifacts", definition);
}
