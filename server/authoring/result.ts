import { brand } from "./brand.ts";
import type { ArtifactsApi, HostServices } from "./types.ts";

export interface ResultContext {
  session: { id: string; purpose?: string };
  host: HostServices;
  artifacts: ArtifactsApi;
  /** Ask the model for a revision with this message. */
  reject(message: string): void;
}

export interface ResultDefinition {
  commit(text: string, ctx: ResultContext): void | Promise<void>;
}

/**
 * `bot/result.ts`: runs on the host with each turn's final assistant text; a throw fails the turn.
 *
 * @example
 * export default defineResult({ async commit(text, ctx) { if (!text.includes("Verdict:")) ctx.reject("End with a verdict."); } });
 */
export function defineResult<T extends ResultDefinition>(definition: T): T {
  return brand("result", definition);
}
