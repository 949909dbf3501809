import type { HookContext, HookDefinition } from "../authoring/hooks.ts";
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";

type Handler = (event: Readonly<AnyBdkEvent>, ctx: HookContext) => void | Promise<void>;

/**
 * Runs `bot/hooks` after events are recorded. Observe only: each event is
 * frozen, and a hook that throws is logged and skipped without touching the turn.
 */
export function dispatchToHooks(
  hooks: ReadonlyMap<string, HookDefinition>,
  events: readonly AnyBdkEvent[],
  ctx: HookContext,
  logger: Logger,
): void {
  if (hooks.size === 0) return;
  for (const event of events) {
    const frozen = deepFreeze(structuredClone(event));
    for (const [name, hook] of hooks) {
      const handlers = hook.events as Record<string, Handler | undefined>;
      for (const handler of [handlers[event.type], handlers["*"]]) {
        if (!handler) continue;
        const fail = (error: unknown) =>
          logger.warn(`Hook ${name} failed on ${event.type}: ${messageOf(error)}`, {
            hook: name,
            event: event.type,
            sessionId: event.sessionId,
            ...(event.turnId ? { turnId: event.turnId } : {}),
          });
        try {
          void Promise.resolve(handler(frozen, ctx)).catch(fail);
        } catch (error) {
          fail(error);
        }
      }
    }
  }
}

/** Freezes an event copy handed to user code, so an observer cannot change what others see. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
