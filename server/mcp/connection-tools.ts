/** MCP tools as the model sees them: `<connection>__<tool>`, validated, with a content envelope as output. */
import { createHash } from "node:crypto";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ConnectionDefinition } from "../authoring/connections.ts";
import type { ToolContext } from "../authoring/tools.ts";
import type { HostMcpCallResult } from "../authoring/types.ts";
import type { LoadedTool } from "../load/types.ts";

export type { McpTool };

/** `include` keeps only the names it lists; `exclude` then hides names. */
export function toolAllowed(definition: ConnectionDefinition, tool: string): boolean {
  if (definition.include && !definition.include.includes(tool)) return false;
  return !definition.exclude?.includes(tool);
}

const MAX_TOOL_NAME = 64;

/**
 * Providers accept `^[A-Za-z0-9_-]{1,64}$` as tool names: anything else
 * becomes `_`, and a longer name keeps its start plus a hash of the whole.
 */
export function modelToolName(connection: string, tool: string): string {
  const name = `${connection}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash("sha256").update(`${connection}__${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** The call gets the whole context: under `--dev` a call that needs authorization parks on the caller's turn. */
type CallMcpTool = (args: Record<string, unknown>, ctx: ToolContext) => Promise<HostMcpCallResult>;

/**
 * One MCP tool as a `LoadedTool`. Input is checked against the tool's JSON
 * Schema (the server validates again); `readOnlyHint` makes it a read for
 * dry runs, anything else counts as a write.
 */
export function connectionTool(connection: string, tool: McpTool, validator: jsonSchemaValidator, call: CallMcpTool): LoadedTool {
  const name = modelToolName(connection, tool.name);
  const schema = tool.inputSchema as Record<string, unknown>;
  let validate: ((input: unknown) => string | undefined) | undefined;
  const effect = tool.annotations?.readOnlyHint === true ? "read" : "write";
  return {
    name,
    description: tool.description ?? tool.title ?? `${tool.name} (MCP connection ${connection})`,
    inputJsonSchema: schema,
    parseInput(input) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        return { ok: false, message: "the input must be a JSON object" };
      }
      validate ??= compile(validator, schema);
      const problem = validate(input);
      return problem ? { ok: false, message: problem } : { ok: true, value: input };
    },
    async execute(input, ctx) {
      return modelEnvelope(await call(input as Record<string, unknown>, ctx));
    },
    execution: "server",
    source: "connection",
    connection,
    effect: () => effect,
    effectLabel: effect,
    needsApproval: async () => false,
    needsApprovalLabel: false,
  };
}

/**
 * Under `--dev`, what the model sees of a connection that needs
 * authorization before it has ever listed its tools: one tool that connects
 * it (parking the turn for the playground's Connect). The real tools join
 * from the next turn on, since a turn's tool list is fixed when it starts.
 */
export function connectTool(connection: string, connect: (ctx: ToolContext) => Promise<HostMcpCallResult>): LoadedTool {
  return {
    name: modelToolName(connection, "connect"),
    description:
      `Connects the MCP connection "${connection}", which needs the user to sign in before its tools can be listed. ` +
      `Call it when the user wants something from ${connection}; its tools are offered from their next message on.`,
    inputJsonSchema: { type: "object", properties: {} },
    parseInput: (input) => ({ ok: true, value: input ?? {} }),
    async execute(_input, ctx) {
      return modelEnvelope(await connect(ctx));
    },
    execution: "server",
    source: "connection",
    connection,
    // Signing in changes nothing on the server: a dry run may connect too.
    effect: () => "read",
    effectLabel: "read",
    needsApproval: async () => false,
    needsApprovalLabel: false,
  };
}

function compile(validator: jsonSchemaValidator, schema: Record<string, unknown>): (input: unknown) => string | undefined {
  try {
    const check = validator.getValidator(schema);
    return (input) => {
      const result = check(input);
      return result.valid ? undefined : result.errorMessage;
    };
  } catch {
    // A schema the validator cannot compile: the MCP server still validates, so accept any object.
    return () => undefined;
  }
}

type EnvelopePart = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/**
 * The harness reads `{ content, isError }` with text and image parts; other
 * MCP parts (resources, audio, links) become text the model can read.
 */
export function modelEnvelope(result: HostMcpCallResult): { content: EnvelopePart[]; isError: boolean } {
  const content = (result.content ?? []).map((part): EnvelopePart => {
    if (part.type === "text") return { type: "text", text: String(part.text ?? "") };
    if (part.type === "image" && typeof part.data === "string") return { type: "image", data: part.data, mimeType: String(part.mimeType) };
    const resource = part.resource as { text?: unknown; uri?: unknown } | undefined;
    if (part.type === "resource" && typeof resource?.text === "string") return { type: "text", text: resource.text };
    if (part.type === "resource_link") return { type: "text", text: `[resource ${String(part.uri)}]` };
    return { type: "text", text: `[${part.type}${part.mimeType ? ` ${String(part.mimeType)}` : ""}]` };
  });
  if (content.length === 0 && result.structuredContent) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  return { content, isError: result.isError === true };
}
