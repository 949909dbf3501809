/** The root authoring entry point (`@cursor/bdk`, `bdk`). */
export { defineAgent, type AgentDefinition } from "./agent.ts";
export { defineInstructions, type InstructionsDefinition } from "./instructions.ts";
export { prompt, type PromptTag } from "./prompt.ts";
export { defineTool, type ToolContext, type ToolDefinition, type ToolExecuteResult, type ToolResultContent } from "./tools.ts";
export type { HostKvApi, HostMcpCallResult, HostServices, JsonObject, JsonSchemaObject, JsonValue, ModelSetting } from "./types.ts";
export type { AgentConfig } from "../load/types.ts";
