import type { JSONValue } from "@ai-sdk/provider";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { ToolContext } from "../authoring/tools.ts";
import { messageOf } from "../protocol/errors.ts";
import type { LoadedTool } from "../load/types.ts";

/** What one tool call produced, as the `action.result` event and `bdk call` report it. */
export interface ToolOutcome {
  output: unknown;
  isError: boolean;
  durationMs: number;
}

export interface ContentEnvelope {
  content: Array<{ type: "text"; text: string } | { type: "image"; data: string; mimeType: string }>;
  isError?: boolean;
}

export function isContentEnvelope(value: unknown): value is ContentEnvelope {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    Object.keys(value).every((key) => key === "content" || key === "isError")
  );
}

/**
 * Validates the input, applies dry-run rules and runs the tool. A throw, an
 * invalid input or an `isError` envelope all become an error outcome: the
 * caller hands it back to the model and the turn goes on.
 */
export async function executeTool(tool: LoadedTool, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const started = performance.now();
  const finish = (output: unknown, isError: boolean): ToolOutcome => ({
    output,
    isError,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  });

  const parsed = tool.parseInput(rawInput ?? {});
  if (!parsed.ok) return finish(`Invalid input for tool ${tool.name}: ${parsed.message}`, true);

  try {
    if (ctx.session.dryRun && tool.effect(parsed.value) === "write") {
      return finish(tool.dryRunResult ? await tool.dryRunResult(parsed.value) : { dryRun: true }, false);
    }
    const output = await tool.execute(parsed.value, ctx);
    if (isContentEnvelope(output)) return finish(output, output.isError === true);
    return finish(output === undefined ? null : output, false);
  } catch (error) {
    return finish(messageOf(error), true);
  }
}

/** The tool result in the shape the model reads. */
export function toModelOutput(outcome: Pick<ToolOutcome, "output" | "isError">): ToolResultOutput {
  const { output, isError } = outcome;
  if (isContentEnvelope(output)) {
    const text = output.content
      .map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`))
      .join("\n");
    return isError ? { type: "error-text", value: text } : { type: "text", value: text };
  }
  if (isError) return { type: "error-text", value: typeof output === "string" ? output : JSON.stringify(output) };
  return { type: "json", value: toJsonValue(output) };
}

function toJsonValue(value: unknown): JSONValue {
  // Round-trip drops functions, undefined and class instances the model could not read anyway.
  return JSON.parse(JSON.stringify(value ?? null));
}
