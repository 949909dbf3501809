import path from "node:path";
import { zodToJsonSchema } from "../load/input-schema.ts";
import type { ZodLike } from "../authoring/tools.ts";
/**
 * The discovered surface as plain JSON: what `bdk info --json` prints and
 * `GET /v1/info` returns (the same object).
 */
import type { ModelSetting } from "../authoring/types.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { nextFireTime } from "./cron.ts";
import type { Diagnostic } from "./diagnostics.ts";

/** The model used when `defineAgent` sets none. */
export const DEFAULT_MODEL = { id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }] };

export interface ModelInfo {
  id: string;
  params: { id: string; value: string }[];
  /** True when the agent does not set a model. */
  isDefault: boolean;
  /** The model turns use right now (`--model`, `BDK_MODEL`, dev fallback applied); null when none can run. */
  effective?: string | null;
  /** Why no model can run (names the variable to set). */
  unavailable?: string;
}

export interface ProjectInfo {
  /** The agent's identity: the package or directory name. */
  name: string;
  /** `defineAgent({ name })`, else `name`: what the playground shows. */
  displayName: string;
  description?: string;
  version: string;
  model: ModelInfo;
  modelFallbacks: ModelInfo[];
  /** Harness built-in tool allowlist (`defineAgent({ tools })`); `"all"` when unset. */
  /** The always-on prompt in brief; the text itself is not part of info. */
  instructions: InstructionsSummary;
  harnessTools: string[] | "all";
  builtinTools: string[];
  concurrency?: { maxRunningTurns?: number };
  hosting?: { egressDomains?: string[]; secretNames?: string[]; image?: string };
  persistent: boolean;
  tools: {
    name: string;
    description: string;
    execution: "server" | "agent";
    effect: "read" | "write" | "dynamic";
    /** The tool declares no effect: it counts as `write`. */
    effectDefault?: true;
    needsApproval: boolean | "dynamic";
    inputSchema: Record<string, unknown>;
    source: string;
    file?: string;
  }[];
  skills: { name: string; description: string; file: string; files: string[] }[];
  /** `name`: the subagent's `defineAgent({ name })`, else its id. */
  subagents: { id: string; name: string; description: string; model?: ModelInfo; file: string; instructions: InstructionsSummary }[];
  connections: ({
    name: string;
    scope: "model" | "host";
    kind: string;
    transport: string;
    target: string;
    description?: string;
    file: string;
  } & Partial<ConnectionState>)[];
  extensions: {
    namespace: string;
    extension: string;
    description?: string;
    file: string;
    contributes: Record<string, string[] | boolean>;
  }[];
  channels: {
    id: string;
    pack?: string;
    routes: { method: string; path: string; description?: string; bodySchema?: unknown; querySchema?: unknown }[];
  }[];
  schedules: { name: string; cron: string; kind: "markdown" | "handler"; nextFireAt?: string }[];
  reminders: { name: string; description?: string }[];
  hooks: { name: string; events: string[]; memory?: { scope: string; maxNotes: number } }[];
  artifacts?: { kinds: { kind: string; description: string; hasSchema: boolean }[]; agentTool: boolean; max: number };
  result: boolean;
  evals: { id: string; file: string; tags: string[] }[];
  diagnostics: Diagnostic[];
}

export interface InstructionsSummary {
  /** The file they come from (`bot/instructions.md`), the folder (`bot/instructions/`), or the agent.ts holding them inline. */
  source: string;
  /** An instructions/ folder's files, in the order they are joined. */
  files?: string[];
  /** Characters of the text the model gets (extension instructions included). */
  length: number;
  /** Its first non-blank line, shortened past 200 characters. */
  firstLine: string;
}

/** A connection's client state, known only while the agent runs (`GET /v1/info`, not `bdk info`). */
export interface ConnectionState {
  status: "idle" | "connected" | "error";
  error?: string;
  tools?: string[];
}

const FIRST_LINE_LIMIT = 200;

function summarizeInstructions(text: string, files: string[], inlineSource: string): InstructionsSummary {
  const line = text.split("\n").find((candidate) => candidate.trim())?.trim() ?? "";
  // The files of an instructions/ folder are named by the folder (even when it holds one file).
  const folder = files.length > 1 || files[0]?.includes("/instructions/");
  return {
    source: files.length === 0 ? inlineSource : folder ? `${path.posix.dirname(files[0])}/` : files[0],
    ...(folder ? { files } : {}),
    length: text.length,
    firstLine: line.length > FIRST_LINE_LIMIT ? `${line.slice(0, FIRST_LINE_LIMIT - 1)}…` : line,
  };
}

function modelInfo(setting: ModelSetting): ModelInfo {
  return typeof setting === "string"
    ? { id: setting, params: [], isDefault: false }
    : { id: setting.id, params: setting.params ?? [], isDefault: false };
}

const TRANSPORT = { remote: "streamable-http", stdio: "stdio", peer: "peer-mcp" } as const;

function connectionTarget(definition: Record<string, unknown>): string {
  if (typeof definition.url === "string") return definition.url;
  if (typeof definition.agent === "string") return definition.agent;
  return [definition.command, ...((definition.args as string[] | undefined) ?? [])].join(" ");
}

interface RouteDescription {
  method: string;
  path: string;
  description?: string;
  bodySchema?: unknown;
  querySchema?: unknown;
}

/** Channel routes with their full paths and, for the playground's Try and slash commands, their JSON Schemas. */
function channelRoutes(id: string, definition: { pack?: string; routes?: RouteDescription[] }) {
  const base = `/v1/channels/${id}`;
  if (definition.pack) return [{ method: "POST", path: base, description: `${definition.pack} webhook` }];
  return (definition.routes ?? []).map((route) => ({
    method: route.method,
    path: route.path === "/" ? base : `${base}${route.path}`,
    description: route.description,
    ...(isZod(route.bodySchema) ? { bodySchema: zodToJsonSchema(route.bodySchema) } : {}),
    ...(isZod(route.querySchema) ? { querySchema: zodToJsonSchema(route.querySchema) } : {}),
  }));
}

function isZod(value: unknown): value is ZodLike {
  return typeof (value as ZodLike | undefined)?.safeParse === "function";
}

export function projectInfo(
  agent: ResolvedAgent,
  diagnostics: Diagnostic[] = [],
  now: Date = new Date(),
  effective: Pick<ModelInfo, "effective" | "unavailable"> = {},
  running: { connections?: Array<ConnectionState & { name: string }> } = {},
): ProjectInfo {
  const states = new Map(running.connections?.map(({ name, ...state }) => [name, state]));
  const config = agent.config;
  const info: ProjectInfo = {
    name: agent.name,
    displayName: config.name ?? agent.name,
    ...(config.description ? { description: config.description } : {}),
    version: agent.version,
    model: { ...(config.model ? modelInfo(config.model) : { ...DEFAULT_MODEL, isDefault: true }), ...effective },
    modelFallbacks: (config.modelFallbacks ?? []).map(modelInfo),
    instructions: summarizeInstructions(agent.instructions, agent.instructionsFiles ?? [], "(none)"),
    harnessTools: config.tools ?? "all",
    builtinTools: Object.entries(config.builtinTools ?? {})
      .filter(([, enabled]) => enabled)
      .map(([name]) => name),
    concurrency: config.concurrency,
    hosting: config.hosting,
    persistent: config.persistent ?? false,
    tools: agent.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      execution: tool.execution,
      effect: tool.effectLabel,
      ...(tool.effectIsDefault ? { effectDefault: true as const } : {}),
      needsApproval: tool.needsApprovalLabel,
      inputSchema: tool.inputJsonSchema,
      source: tool.source,
      file: tool.file,
    })),
    skills: agent.skills.map((skill) => ({ name: skill.name, description: skill.description, file: skill.file, files: Object.keys(skill.files) })),
    subagents: agent.subagents.map((subagent) => ({
      id: subagent.id,
      name: subagent.config.name ?? subagent.id,
      description: subagent.description,
      model: subagent.config.model ? modelInfo(subagent.config.model) : undefined,
      file: subagent.file,
      instructions: summarizeInstructions(subagent.instructions, subagent.instructionsFile ? [subagent.instructionsFile] : [], subagent.file),
    })),
    connections: [...agent.connections.values()].map((connection) => ({
      name: connection.name,
      scope: connection.scope,
      kind: connection.kind,
      transport: TRANSPORT[connection.kind],
      target: connectionTarget(connection.definition as unknown as Record<string, unknown>),
      description: connection.definition.description,
      file: connection.file,
      ...states.get(connection.name),
    })),
    extensions: (agent.extensions ?? []).map((extension) => ({ ...extension, contributes: { ...extension.contributes } })),
    channels: [...agent.channels].map(([id, definition]) => ({ id, pack: definition.pack, routes: channelRoutes(id, definition) })),
    schedules: [...agent.schedules].map(([name, schedule]) => ({
      name,
      cron: schedule.cron,
      kind: typeof schedule.run === "function" ? "handler" : "markdown",
      nextFireAt: nextFireTime(schedule.cron, now),
    })),
    reminders: [...agent.reminders].map(([name, reminder]) => ({ name, description: reminder.description })),
    hooks: [...agent.hooks].map(([name, hook]) => ({
      name,
      events: Object.keys(hook.events ?? {}),
      memory: (hook as { memory?: { scope: string; maxNotes: number } }).memory,
    })),
    artifacts: agent.artifacts && {
      kinds: Object.entries(agent.artifacts.kinds).map(([kind, spec]) => ({ kind, description: spec.description, hasSchema: Boolean(spec.schema) })),
      agentTool: agent.artifacts.agentTool ?? false,
      max: agent.artifacts.max ?? 1000,
    },
    result: Boolean(agent.result),
    evals: (agent.evals?.cases ?? []).map((evalCase) => ({ id: evalCase.id, file: evalCase.file, tags: evalCase.tags })),
    diagnostics,
  };
  // One serialisation round drops undefined fields, so the CLI and HTTP outputs are byte-identical.
  return JSON.parse(JSON.stringify(info)) as ProjectInfo;
}
