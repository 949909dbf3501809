/**
 * What `load/` hands the runtime: an agent whose modules are imported and
 * whose definitions are checked. The harness and sessions read only this.
 */
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { ConnectionDefinition } from "../authoring/connections.ts";
import type { EvalConfigDefinition, EvalTest } from "../authoring/evals.ts";
import type { HookDefinition } from "../authoring/hooks.ts";
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { ResultDefinition } from "../authoring/result.ts";
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import type { ToolContext, ToolEffect } from "../authoring/tools.ts";
import type { ModelSetting } from "../authoring/types.ts";
import type { Diagnostic } from "../discover/diagnostics.ts";

/** Where a tool in the model's list comes from (see `LoadedTool.source`). */
export type ToolSource = "authored" | "builtin" | "reminders" | "artifacts" | "subagents" | "connection" | "extension";

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
  /**
   * Where the tool came from, for `info`, diagnostics and the model offer:
   * the project, a harness built-in (`reminders`, `artifacts` and
   * `subagents` are the built-ins a setting turns on), an MCP connection or
   * an extension.
   */
  source: ToolSource;
  /** The MCP connection that serves a `connection` tool. */
  connection?: string;
  file?: string;
  effect(input: unknown): ToolEffect;
  /** Display form of the effect for `info` (`"read"`, `"write"` or `"dynamic"`). */
  effectLabel: ToolEffect | "dynamic";
  /** The definition declares no effect, so it counts as `write` (shown as "write (default)"). */
  effectIsDefault?: true;
  needsApproval(input: unknown, ctx: ToolContext): Promise<boolean>;
  needsApprovalLabel: boolean | "dynamic";
  dryRunResult?: (input: unknown) => unknown;
  /** The call's time limit in ms (default `DEFAULT_TOOL_TIMEOUT_MS`); `Infinity` for none. */
  timeoutMs?: number;
  /** A fork's stand-in: `execute` answers the given result (its calls' `action.result` says `stubbed`). */
  stubbed?: true;
  /** A fork's stubs of single calls: the stand-in answering the `call`-th call of this tool in the session, if that call is stubbed. */
  stubFor?(call: number): LoadedTool | undefined;
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
  /** `subagents/<id>/instructions.md`, when the instructions come from it rather than `defineAgent`. */
  instructionsFile?: string;
}

/** An MCP connection from `mcp-connections/` (scope "model") or `host-connections/` (scope "host"). */
export interface ResolvedConnection {
  name: string;
  scope: "model" | "host";
  kind: "remote" | "stdio" | "peer";
  definition: ConnectionDefinition;
  file: string;
}

/** What an `extensions/<ns>` mount added (names already prefixed `<ns>__`). */
export interface ResolvedExtension {
  namespace: string;
  extension: string;
  description?: string;
  file: string;
  contributes: {
    tools: string[];
    skills: string[];
    connections: string[];
    hooks: string[];
    channels: string[];
    schedules: string[];
    subagents: string[];
    artifactKinds: string[];
    instructions: boolean;
  };
}

/** One runnable eval case: `<file-id>` or `<file-id>/<case-id>` (arrays: `<file-id>/0000`). */
export interface LoadedEvalCase {
  id: string;
  file: string;
  description?: string;
  tags: string[];
  iterations: number;
  timeoutMs?: number;
  test: EvalTest;
}

export interface LoadedEvals {
  /** Undefined without `evals/evals.config.ts` (the runner's defaults apply) or when the file has errors. */
  config?: EvalConfigDefinition;
  configFile?: string;
  cases: LoadedEvalCase[];
  /** The project's `evals`-scope diagnostics; with an error among them no run starts. */
  diagnostics: Diagnostic[];
}

/** A loaded agent. `version` is a content hash of `bot/` (recorded on each turn). */
export interface ResolvedAgent {
  name: string;
  /** Absolute project directory. */
  rootDir: string;
  /** Absolute `bot/` (or legacy `agent/`) directory. */
  botDir: string;
  version: string;
  config: AgentConfig;
  instructions: string;
  /** The files the root instructions come from (one, or an instructions/ folder's in order). */
  instructionsFiles?: string[];
  tools: LoadedTool[];
  skills: LoadedSkill[];
  subagents: ResolvedSubagent[];
  /** Definitions loaded from the other capability folders (and extensions), keyed by name. */
  channels: Map<string, ChannelDefinition>;
  schedules: Map<string, ScheduleDefinition>;
  reminders: Map<string, ReminderDefinition>;
  hooks: Map<string, HookDefinition>;
  connections: Map<string, ResolvedConnection>;
  artifacts?: ArtifactsDefinition;
  result?: ResultDefinition;
  /** Absolute `bot/sandbox/workspace`, when it exists: seed files for each session workspace. */
  sandboxDir?: string;
  extensions?: ResolvedExtension[];
  evals?: LoadedEvals;
}
