import { brand } from "./brand.ts";
import type { ArtifactsApi, HostServices, JsonObject, JsonSchemaObject } from "./types.ts";

/** Anything with zod's `safeParse` and its inferred output type (zod 3 or 4). */
export interface ZodLike<Output = unknown> {
  safeParse(value: unknown): { success: true; data: Output } | { success: false; error: unknown };
  readonly _output?: Output;
}

/**
 * zod (3 or 4), or a JSON Schema object however it is typed: inline, as
 * `JsonSchemaObject`, or as whatever a generator returns (`Record<string, unknown>`,
 * its own interface). The loader checks the shape.
 */
export type ToolInputSchema = ZodLike | JsonSchemaObject | object;

/** The input type `execute` receives: inferred from a zod schema; a JSON object for a JSON Schema (validated, not inferred). */
export type InferToolInput<Schema> = Schema extends ZodLike<infer Output> ? Output : Schema extends object ? JsonObject : Record<string, never>;

export type ToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** Either any JSON-serialisable value or the content envelope. */
export type ToolExecuteResult = unknown | { content: ToolResultContent[]; isError?: boolean };

export interface ToolContext {
  session: { id: string; purpose?: string; dryRun?: boolean };
  /** Absent on direct calls (no model turn). */
  toolCallId?: string;
  now(): Date;
  workspaceDir: string;
  /** Fires when the turn is stopped or preempted. */
  abortSignal: AbortSignal;
  artifacts: ArtifactsApi;
  host: HostServices;
}

export type ToolEffect = "read" | "write";

export interface ToolDefinition<Schema = undefined, Output = unknown> {
  description: string;
  inputSchema?: Schema;
  outputSchema?: ZodLike<Output>;
  execute: (input: InferToolInput<Schema>, ctx: ToolContext) => Output | Promise<Output>;
  execution?: "server" | "agent";
  effect?: ToolEffect | ((input: InferToolInput<Schema>) => ToolEffect);
  needsApproval?: boolean | ((input: InferToolInput<Schema>, ctx: ToolContext) => boolean | Promise<boolean>);
  dryRunResult?: (input: InferToolInput<Schema>) => unknown;
  /**
   * Time limit of one call in ms (default 10 minutes; `Infinity` for none).
   * When it passes, the call's `abortSignal` fires and the model gets an
   * error result; a call that does not stop is left running.
   */
  timeoutMs?: number;
}

/**
 * One tool per file under `bot/tools/<name>.ts`; the file name is the tool name.
 *
 * @example
 * export default defineTool({
 *   description: "Inspect a pull request.",
 *   inputSchema: z.object({ prUrl: z.string().url() }),
 *   async execute({ prUrl }) { return { prUrl }; },
 * });
 */
export function defineTool<Schema extends ToolInputSchema | undefined = undefined, Output = unknown>(
  definition: ToolDefinition<Schema, Output>,
): ToolDefinition<Schema, Output> {
  return brand("tool", definition);
}
