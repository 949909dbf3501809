import { brand } from "./brand.ts";
import type { HookDefinition } from "./hooks.ts";

export interface MemoryOptions {
  /** Whose notes are shared: per principal (default), the whole agent, or one session. */
  scope?: "principal" | "agent" | "session";
  /** How many recent notes are recalled into the system prompt (default 20). */
  maxNotes?: number;
}

export interface MemoryHookDefinition extends HookDefinition {
  memory: Required<MemoryOptions>;
}

/**
 * `bot/hooks/memory.ts`: durable memory. The runtime stores a note after each completed turn and recalls the
 * latest notes at the start of later sessions.
 *
 * @example
 * export default memoryHook({ scope: "principal", maxNotes: 10 });
 */
export function memoryHook(options: MemoryOptions = {}): MemoryHookDefinition {
  return brand("hook", { events: {}, memory: { scope: options.scope ?? "principal", maxNotes: options.maxNotes ?? 20 } });
}
