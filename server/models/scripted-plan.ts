/**
 * What the scripted model does in one step, decided from the prompt alone
 * (no clock, no randomness), so the same conversation always gets the same
 * answer. Streaming and usage live in scripted.ts.
 */
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolChoice,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import { findSchemaProblem, isPlainObject, requiredStringFields, type ObjectSchema } from "./schema-check.ts";

export type ScriptedStep =
  | { kind: "tool-call"; reasoning: string; toolName: string; input: Record<string, unknown> }
  | { kind: "text"; reasoning: string; text: string };

export interface ScriptedStepRequest {
  agentName: string;
  prompt: LanguageModelV3Prompt;
  tools: LanguageModelV3FunctionTool[];
  toolChoice?: LanguageModelV3ToolChoice;
}

/** Tool results are quoted up to this many characters: enough for the key values evals look for. */
const RESULT_QUOTE_LIMIT = 1200;

export function planScriptedStep(request: ScriptedStepRequest): ScriptedStep {
  const { prompt, tools } = request;
  const lastUserIndex = prompt.findLastIndex((message) => message.role === "user");
  const results = toolResultsAfter(prompt, lastUserIndex);
  // After a tool result the model answers: it never calls a second tool for the same user message.
  if (results.length > 0) {
    const names = [...new Set(results.map((result) => result.toolName))].join(", ");
    return { kind: "text", reasoning: `Summarizing the result of ${names}.`, text: results.map(summarize).join("\n") };
  }

  const userText = lastUserIndex >= 0 ? userMessageText(prompt[lastUserIndex]) : "";
  const chosen = request.toolChoice?.type === "none" ? undefined : chooseTool(userText, tools, request.toolChoice);
  if (!chosen) {
    return {
      kind: "text",
      reasoning: "No tool matches the message; introducing myself.",
      text: introduction(request.agentName, tools),
    };
  }

  const schema = (isPlainObject(chosen.inputSchema) ? chosen.inputSchema : {}) as ObjectSchema;
  const input = extractInput(userText, schema);
  const problem = findSchemaProblem(schema, input);
  if (problem) {
    const required = schema.required ?? [];
    const hint = required.length > 0 ? ` with the field${required.length > 1 ? "s" : ""} ${required.join(", ")}` : "";
    return {
      kind: "text",
      reasoning: `The message asks for ${chosen.name}, but I cannot build a valid input for it.`,
      text: `I cannot call ${chosen.name}: ${problem}. Put its input in the message as a JSON object${hint}.`,
    };
  }
  return {
    kind: "tool-call",
    reasoning: `The message asks for ${chosen.name}; calling it.`,
    toolName: chosen.name,
    input: input as Record<string, unknown>,
  };
}

export function introduction(agentName: string, tools: LanguageModelV3FunctionTool[]): string {
  const names = tools.map((tool) => tool.name).join(", ") || "none";
  return (
    `I am ${agentName}, running on the offline scripted model. My tools: ${names}. ` +
    "Mention one by name and I will call it, with its input in the message as JSON, a URL or a quoted string."
  );
}

/**
 * Exact tool name first, then the name's first word as a whole word;
 * within each rule the earliest declared tool wins.
 */
export function chooseTool(
  text: string,
  tools: LanguageModelV3FunctionTool[],
  toolChoice?: LanguageModelV3ToolChoice,
): LanguageModelV3FunctionTool | undefined {
  if (toolChoice?.type === "tool") return tools.find((tool) => tool.name === toolChoice.toolName);
  const byName = tools.find((tool) => containsToken(text, tool.name, /[\p{L}\p{N}_-]/u));
  if (byName) return byName;
  return tools.find((tool) => {
    const word = firstWord(tool.name);
    return word !== undefined && containsToken(text, word, /[\p{L}\p{N}]/u);
  });
}

/** A JSON object in the message, else the first URL or quoted string in the first required string field. */
export function extractInput(text: string, schema: ObjectSchema): unknown {
  const json = firstJsonObject(text);
  if (json) return json;
  const value = firstUrl(text) ?? firstQuoted(text);
  const field = requiredStringFields(schema)[0];
  return value !== undefined && field !== undefined ? { [field]: value } : {};
}

function firstWord(name: string): string | undefined {
  return name.split(/[_-]/).find((part) => part.length > 0);
}

/** `needle` occurs in `text` (case-insensitive) with no `wordChar` right before or after it. */
function containsToken(text: string, needle: string, wordChar: RegExp): boolean {
  const haystack = text.toLowerCase();
  const target = needle.toLowerCase();
  for (let at = haystack.indexOf(target); at >= 0; at = haystack.indexOf(target, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + target.length];
    if ((before === undefined || !wordChar.test(before)) && (after === undefined || !wordChar.test(after))) return true;
  }
  return false;
}

function firstJsonObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    const end = matchingBrace(text, start);
    if (end < 0) continue;
    try {
      const parsed: unknown = JSON.parse(text.slice(start, end + 1));
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON (prose in braces, a template): try the next brace.
    }
  }
  return undefined;
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside JSON strings; -1 when unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index;
  }
  return -1;
}

function firstUrl(text: string): string | undefined {
  const match = /\bhttps?:\/\/[^\s<>"'`]+/i.exec(text);
  return match?.[0].replace(/[.,;:!?)\]}]+$/, "");
}

function firstQuoted(text: string): string | undefined {
  // Single quotes count only at word edges, so apostrophes ("don't") are not quotes.
  const match = /"([^"\n]+)"|“([^”\n]+)”|`([^`\n]+)`|(?<![\p{L}\p{N}])'([^'\n]+)'(?![\p{L}\p{N}])/u.exec(text);
  return match?.slice(1).find((group) => group !== undefined);
}

function userMessageText(message: LanguageModelV3Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

function toolResultsAfter(prompt: LanguageModelV3Prompt, lastUserIndex: number): LanguageModelV3ToolResultPart[] {
  return prompt
    .slice(lastUserIndex + 1)
    .flatMap((message) => (message.role === "tool" ? message.content : []))
    .filter((part): part is LanguageModelV3ToolResultPart => part.type === "tool-result");
}

function summarize(result: LanguageModelV3ToolResultPart): string {
  const { output, toolName } = result;
  switch (output.type) {
    case "text":
      return `${toolName} returned: ${quote(output.value)}`;
    case "json":
      return `${toolName} returned: ${quote(JSON.stringify(output.value))}`;
    case "error-text":
      return `${toolName} failed: ${quote(output.value)}`;
    case "error-json":
      return `${toolName} failed: ${quote(JSON.stringify(output.value))}`;
    case "execution-denied":
      return `${toolName} was not run: ${output.reason ?? "the call was denied"}.`;
    case "content": {
      const text = output.value.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");
      return `${toolName} returned: ${quote(text)}`;
    }
  }
}

function quote(text: string): string {
  return text.length > RESULT_QUOTE_LIMIT ? `${text.slice(0, RESULT_QUOTE_LIMIT)}… (truncated)` : text;
}
