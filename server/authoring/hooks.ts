import { brand } from "./brand.ts";
import type { AnyBdkEvent, BdkEvent, EventType } from "../protocol/events.ts";
import type { ArtifactsApi, HostServices } from "./types.ts";

export interface HookContext {
  session: { id: string; purpose?: string };
  channel?: { id: string };
  host: HostServices;
  artifacts: ArtifactsApi;
}

export type HookHandlers = {
  [T in EventType]?: (event: Readonly<BdkEvent<T>>, ctx: HookContext) => void | Promise<void>;
} & {
  /** Every event. */
  "*"?: (event: Readonly<AnyBdkEvent>, ctx: HookContext) => void | Promise<void>;
};

export interface HookDefinition {
  events: HookHandlers;
}

/**
 * `bot/hooks/**\/<name>.ts`: an observe-only subscriber to every session's events; a throw is logged and skipped.
 *
 * @example
 * export default defineHook({ events: { "turn.completed"(event, ctx) { ctx.host.otel.increment("turns"); } } });
 */
export function defineHook(definition: HookDefinition): HookDefinition {
  return brand("hook", definition);
}
