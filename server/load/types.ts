/**
 * What `load/` hands the runtime: an agent whose modules are imported and
 * whose definitions are checked. The harness and sessions read only this.
 */
import type { ToolContext, ToolEffect } from "../authoring/tools.ts";
import type { ModelSetting } from "../authoring/types.ts";

/** A tool ready to run: a JSON Schema for the model, a validator, an executor. */
export interface LoadedTool {
  name: string;
  description: string;
  /** JSON Schema given to the model (converted from zod when needed). */
  inputJsonSchema: Record<string, unknown>;
  /** Validates and coerces input; a message names the failing field. */
  parseInput(input: unknown): { ok: true; value: unknown } | { ok: false; message: string };
  execute(input: unknown, ctx: ToolContext): Promise<unknown>;
  execution: "server" | "agent";
  /** Where the tool came from, for `info` and diagnostics. */
  source: "authored" | "builtin" | "connection" | "extension";
  file?: string;
  effect(input: unknown): ToolEffect;
  /** Display form of the effect for `info` (`"read"`, `"write"` or `"dynamic"`). */
  effectLabel: ToolEffect | "dynamic";
  needsApproval(input: unknown, ctx: ToolContext): Promise<boolean>;
  needsApprovalLabel: boolean | "dynamic";
  dryRunResult?: (input: unknown) => unknown;
}

export interface LoadedSkill {
  name: string;
  description: string;
  markdown: string;
  /** Relative path → contents, written beside SKILL.md in the workspace. */
  files: Record<string, string>;
  file: string;
}

export interface AgentConfig {
  model?: ModelSetting;
  modelFallbacks?: ModelSetting[];
  name?: string;
  description?: string;
  instructions?: string;
  tools?: string[];
  local?: { cwd?: string; workspaceDir?: string; sandbox?: boolean };
  concurrency?: { maxRunningTurns?: number };
  hosting?: { egressDomains?: string[]; secretNames?: string[]; image?: string };
  persistent?: boolean;
  builtinTools?: { reminders?: boolean; [key: string]: boolean | undefined };
}

export interface ResolvedSubagent {
  id: string;
  description: string;
  instructions: string;
  config: AgentConfig;
  file: string;
}

/** A loaded agent. `version` is a content hash of `bot/` (recorded on each turn). */
export interface ResolvedAgent {
  name: string;
  rootDir: string;
  botDir: string;
  version: string;
  config: AgentConfig;
  instructions: string;
  tools: LoadedTool[];
  skills: LoadedSkill[];
  subagents: ResolvedSubagent[];
  /** Definitions loaded from the other capability folders, keyed by name. */
  channels: Map<string, unknown>;
  schedules: Map<string, unknown>;
  reminders: Map<string, unknown>;
  hooks: Map<string, unknown>;
  connections: Map<string, unknown>;
  artifacts?: unknown;
  result?: unknown;
}
