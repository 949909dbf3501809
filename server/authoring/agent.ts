import { brand } from "./brand.ts";
import type { AgentConfig } from "../load/types.ts";

/** `bot/agent.ts` (and `bot/subagents/<id>/agent.ts`): model and harness config. */
export type AgentDefinition = AgentConfig;

/**
 * Model and harness configuration for the root agent or a subagent.
 *
 * @example
 * export default defineAgent({ model: "grok-4.5", tools: ["read", "grep"] });
 */
export function defineAgent<T extends AgentDefinition>(definition: T): T {
  return brand("agent", definition);
}
