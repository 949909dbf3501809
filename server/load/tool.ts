/**
 * Wraps a tool definition (from `defineTool`, a plain object of the same
 * shape, an extension or a built-in) into the `LoadedTool` the harness runs.
 */
import type { ToolContext, ToolEffect } from "../authoring/tools.ts";
import { checkSchema } from "../authoring/validate-schema.ts";
import { DefinitionError } from "./definition-error.ts";
import { compileInputSchema, isZodLike } from "./input-schema.ts";
import type { ProjectZod } from "./project-zod.ts";
import type { LoadedTool } from "./types.ts";

export interface ToolOrigin {
  file?: string;
  source?: LoadedTool["source"];
  /** The project's zod copies, so a schema made with one keeps its descriptions. */
  projectZod?: ProjectZod;
}

interface ToolShape {
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  execute?: unknown;
  execution?: unknown;
  effect?: unknown;
  needsApproval?: unknown;
  dryRunResult?: unknown;
  timeoutMs?: unknown;
}

type Fn = (...args: unknown[]) => unknown;

/** Whether a value has the shape of a tool (used for plain-object tool files). */
export function looksLikeTool(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as ToolShape).execute === "function";
}

function invalid(message: string, hint?: string): never {
  throw new DefinitionError("invalid_definition", message, hint);
}

function effectOf(effect: unknown): { label: LoadedTool["effectLabel"]; isDefault?: true; decide(input: unknown): ToolEffect } {
  // Undeclared counts as a side effect: a dry run (an eval) must never run a tool that may change something.
  if (effect === undefined) return { label: "write", isDefault: true, decide: () => "write" };
  if (effect === "read") return { label: "read", decide: () => "read" };
  if (effect === "write") return { label: "write", decide: () => "write" };
  if (typeof effect !== "function") invalid(`effect must be "read", "write" or a function of the input (got ${JSON.stringify(effect)})`);
  return {
    label: "dynamic",
    decide(input) {
      try {
        return (effect as Fn)(input) === "read" ? "read" : "write";
      } catch {
        // An effect that cannot be decided is treated as a side effect, so dry runs stay safe.
        return "write";
      }
    },
  };
}

function approvalOf(needsApproval: unknown): { label: LoadedTool["needsApprovalLabel"]; decide(input: unknown, ctx: ToolContext): Promise<boolean> } {
  if (needsApproval === undefined || typeof needsApproval === "boolean") {
    const value = needsApproval ?? false;
    return { label: value, decide: async () => value };
  }
  if (typeof needsApproval !== "function") invalid("needsApproval must be a boolean or a function (input, ctx) => boolean");
  return { label: "dynamic", decide: async (input, ctx) => Boolean(await (needsApproval as Fn)(input, ctx)) };
}

/** Throws `DefinitionError` when the definition is not a usable tool. */
export function loadTool(name: string, definition: unknown, origin: ToolOrigin = {}): LoadedTool {
  if (!looksLikeTool(definition)) invalid("a tool needs an execute(input, ctx) function");
  const tool = definition as ToolShape;
  if (typeof tool.description !== "string" || !tool.description.trim()) {
    invalid("a tool needs a description (the model reads it to decide when to call the tool)");
  }
  if (tool.execution !== undefined && tool.execution !== "server" && tool.execution !== "agent") {
    invalid(`execution must be "server" or "agent" (got ${JSON.stringify(tool.execution)})`);
  }
  if (tool.dryRunResult !== undefined && typeof tool.dryRunResult !== "function") invalid("dryRunResult must be a function (input) => value");
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === "number" && tool.timeoutMs > 0)) {
    invalid(`timeoutMs must be a positive number of milliseconds, or Infinity for no limit (got ${typeof tool.timeoutMs === "number" ? tool.timeoutMs : JSON.stringify(tool.timeoutMs)})`);
  }
  const outputSchema = tool.outputSchema;
  if (outputSchema !== undefined && !isZodLike(outputSchema)) invalid("outputSchema must be a zod schema");

  const input = compileInputSchema(tool.inputSchema, { toolName: name, projectZod: origin.projectZod });
  const effect = effectOf(tool.effect);
  const approval = approvalOf(tool.needsApproval);
  const execute = tool.execute as Fn;
  const dryRunResult = tool.dryRunResult as ((input: unknown) => unknown) | undefined;

  return {
    name,
    description: tool.description as string,
    inputJsonSchema: input.jsonSchema,
    // Tools take an object; a call without input means "no arguments".
    parseInput: (value) => input.parse(value === undefined ? {} : value),
    async execute(value, ctx) {
      const result = await execute(value, ctx);
      if (!outputSchema) return result;
      const checked = checkSchema(outputSchema, result);
      if (!checked.ok) throw new Error(`${name} returned a value that does not match its outputSchema: ${checked.message}`);
      return checked.value;
    },
    execution: (tool.execution as "server" | "agent" | undefined) ?? "server",
    source: origin.source ?? "authored",
    file: origin.file,
    effect: effect.decide,
    effectLabel: effect.label,
    ...(effect.isDefault ? { effectIsDefault: true as const } : {}),
    needsApproval: approval.decide,
    needsApprovalLabel: approval.label,
    dryRunResult,
    timeoutMs: tool.timeoutMs as number | undefined,
  };
}
