import type { JSONValue } from "@ai-sdk/provider";
import type { ModelMessage, ToolResultOutput } from "@ai-sdk/provider-utils";
import type { ToolContext } from "../authoring/tools.ts";
import { messageOf } from "../protocol/errors.ts";
import type { LoadedTool } from "../load/types.ts";
import { DEFAULT_TOOL_TIMEOUT_MS, guardCall, jsonProblem } from "./tool-guard.ts";

/** What one tool call produced, as the `action.result` event and `bdk call` report it. */
export interface ToolOutcome {
  output: unknown;
  isError: boolean;
  durationMs: number;
  /** The call was left running (it ignored its stop, or outlived its time limit). */
  stillRunning?: true;
  /** A fork's tool stub answered: the tool did not run. */
  stubbed?: true;
}

export interface ContentEnvelope {
  content: Array<{ type: "text"; text: string } | { type: "image"; data: string; mimeType: string }>;
  isError?: boolean;
}

/** `{ content: [...], isError? }` whose every part is well formed; anything else is plain JSON output. */
export function isContentEnvelope(value: unknown): value is ContentEnvelope {
  if (typeof value !== "object" || value === null) return false;
  const { content } = value as { content?: unknown };
  return (
    Array.isArray(content) &&
    content.every(isContentPart) &&
    Object.keys(value).every((key) => key === "content" || key === "isError")
  );
}

/**
 * `{ content, isError: true }` with any other keys (an MCP result's
 * `structuredContent`, `_meta`) or content parts: the tool reports a failure,
 * as a throw does.
 */
export function isErrorResult(value: unknown): value is { content: unknown; isError: true } {
  return typeof value === "object" && value !== null && "content" in value && (value as { isError?: unknown }).isError === true;
}

function isContentPart(part: unknown): boolean {
  if (typeof part !== "object" || part === null) return false;
  const { type, text, data, mimeType } = part as Record<string, unknown>;
  return type === "text" ? typeof text === "string" : type === "image" && typeof data === "string" && typeof mimeType === "string";
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

  const dryRun = ctx.session.dryRun === true && tool.effect(parsed.value) === "write";
  const call = await guardCall<unknown>(
    (signal) =>
      dryRun
        ? (tool.dryRunResult?.(parsed.value) ?? { dryRun: true })
        : tool.execute(parsed.value, { ...ctx, abortSignal: signal }),
    { signal: ctx.abortSignal, timeoutMs: tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS },
  );
  if (!call.settled) return { ...finish(leftRunning(tool, call.why), true), stillRunning: true };
  if ("error" in call) return finish(messageOf(call.error), true);
  const output = call.value;
  const problem = jsonProblem(output);
  if (problem) return finish(`tool \`${tool.name}\` returned a value that is not JSON: ${problem}`, true);
  if (isErrorResult(output)) return finish(output, true);
  if (isContentEnvelope(output)) return finish(output, false);
  return finish(output === undefined ? null : output, false);
}

function leftRunning(tool: LoadedTool, why: "stopped" | "timed out"): string {
  const what =
    why === "stopped"
      ? "was still running when the turn was stopped (it did not stop on its abort signal)"
      : `did not finish within its time limit of ${tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS} ms (the tool's timeoutMs)`;
  return `tool \`${tool.name}\` ${what}; it was left running and its result will be discarded.`;
}

/**
 * The tool result in the shape the model reads. Images travel as image parts;
 * the model step turns them into placeholders for providers that take only
 * text in tool results (`withoutToolImages`).
 */
export function toModelOutput(outcome: Pick<ToolOutcome, "output" | "isError">): ToolResultOutput {
  const { output, isError } = outcome;
  if (isContentEnvelope(output)) {
    if (isError || output.content.every((part) => part.type === "text")) {
      const text = envelopeText(output.content);
      return isError ? { type: "error-text", value: text } : { type: "text", value: text };
    }
    return {
      type: "content",
      value: output.content.map((part) =>
        part.type === "text" ? { type: "text", text: part.text } : { type: "image-data", data: part.data, mediaType: part.mimeType },
      ),
    };
  }
  if (isError) return { type: "error-text", value: typeof output === "string" ? output : (errorResultText(output) ?? JSON.stringify(output)) };
  return { type: "json", value: toJsonValue(output) };
}

/** The text parts of an error result that is not a well-formed envelope (extra keys, other part types). */
function errorResultText(output: unknown): string | undefined {
  if (!isErrorResult(output) || !Array.isArray(output.content)) return undefined;
  const texts = output.content.map((part) => (typeof part?.text === "string" ? part.text : undefined)).filter((text) => text !== undefined);
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function toJsonValue(value: unknown): JSONValue {
  // Round-trip drops functions, undefined and class instances the model could not read anyway.
  return JSON.parse(JSON.stringify(value ?? null));
}

type ContentOutputPart = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/** A content result as text: images become `[image <type>]`. */
function envelopeText(parts: ReadonlyArray<ContentEnvelope["content"][number] | ContentOutputPart>): string {
  return parts
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "image") return `[image ${part.mimeType}]`;
      return `[${"mediaType" in part && part.mediaType ? `image ${part.mediaType}` : part.type}]`;
    })
    .join("\n");
}

/**
 * Providers whose tool results carry images (Anthropic messages, the OpenAI
 * and xAI responses APIs). Chat-completions APIs take text only: they would
 * put the base64 into the prompt as text.
 */
const TOOL_IMAGE_PROVIDERS = /^(anthropic\.|openai\.responses|xai\.responses)/;

/** The conversation as `provider` can take it: image parts of tool results become placeholders where needed. */
export function withoutToolImages(messages: ModelMessage[], provider: string): ModelMessage[] {
  if (TOOL_IMAGE_PROVIDERS.test(provider)) return messages;
  const hasImages = (message: ModelMessage) =>
    message.role === "tool" && message.content.some((part) => part.type === "tool-result" && part.output.type === "content");
  if (!messages.some(hasImages)) return messages;
  return messages.map((message) => {
    if (message.role !== "tool" || !hasImages(message)) return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === "tool-result" && part.output.type === "content"
          ? { ...part, output: { type: "text" as const, value: envelopeText(part.output.value) } }
          : part,
      ),
    };
  });
}
