/**
 * The GenAI semantic conventions BDK follows (gen_ai.* of semantic
 * conventions 1.41, as shipped in @opentelemetry/semantic-conventions
 * 1.45). Copied rather than imported from its `incubating` entry point, as
 * that package advises: experimental names may change in a minor release,
 * and the entry point is several megabytes of JavaScript. The tests check
 * these names against the package.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  /** Deprecated for `gen_ai.provider.name`; still what several backends read. */
  system: "gen_ai.system",
  agentName: "gen_ai.agent.name",
  agentVersion: "gen_ai.agent.version",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  tokenType: "gen_ai.token.type",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
} as const;

export const ERROR_TYPE = "error.type";

export const OPERATION = { chat: "chat", invokeAgent: "invoke_agent", executeTool: "execute_tool" } as const;

export const GEN_AI_METRICS = {
  tokenUsage: "gen_ai.client.token.usage",
  operationDuration: "gen_ai.client.operation.duration",
} as const;

/** The conventions' well-known provider names, where the AI SDK's differ. */
const PROVIDER_NAMES: Record<string, string> = { xai: "x_ai", google: "gcp.gemini", mistral: "mistral_ai" };

/** `openai.responses` → `openai`, `xai.chat` → `x_ai`; `bdk` (the scripted model) stays as is. */
export function providerName(aiSdkProvider: string): string {
  const family = aiSdkProvider.split(".")[0] ?? aiSdkProvider;
  return PROVIDER_NAMES[family] ?? family;
}

/** AI SDK finish reasons in the conventions' spelling (`tool-calls` → `tool_call`). */
export function finishReason(reason: string): string {
  if (reason === "tool-calls") return "tool_call";
  return reason.replaceAll("-", "_");
}
