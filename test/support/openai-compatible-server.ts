/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions wire
 * protocol, scripted by the test: each request takes the next queued
 * response. It records what it received so tests can assert the messages
 * and tools a provider actually sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedResponse =
  | { text: string }
  | {
      toolCall: { name: string; arguments: Record<string, unknown> | string; id?: string };
      /** Send the whole call in one chunk (xAI style) instead of arguments in pieces (OpenAI style). */
      inOneChunk?: boolean;
    }
  | { status: number; error?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // The body is whatever JSON the client sent; tests read fields from it.
  body: any;
}

export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>/v1`, the base URL providers expect. */
  baseURL: string;
  requests: RecordedRequest[];
  enqueue(...responses: ScriptedResponse[]): void;
  close(): Promise<void>;
}

export async function startOpenAICompatibleServer(initial: ScriptedResponse[] = []): Promise<OpenAICompatibleServer> {
  const queue = [...initial];
  const requests: RecordedRequest[] = [];
  let completions = 0;

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendError(res, 400, "Request body is not JSON.");
    }
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") return sendError(res, 404, `No route ${req.method} ${req.url}.`);

    const next = queue.shift();
    if (!next) return sendError(res, 500, "The test server has no scripted response left.");
    if ("status" in next) return sendError(res, next.status, next.error ?? `Scripted failure ${next.status}.`);

    const request = body as { model?: string; stream?: boolean; messages?: unknown; stream_options?: { include_usage?: boolean } };
    const completion = { id: `chatcmpl-test-${++completions}`, created: 1_700_000_000, model: request.model ?? "test-model" };
    const usage = usageFor(request.messages, next);
    if (request.stream) {
      streamCompletion(res, completion, next, request.stream_options?.include_usage ? usage : undefined);
    } else {
      sendJson(res, 200, { ...completion, object: "chat.completion", choices: [choiceFor(next)], usage });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

type Completion = { id: string; created: number; model: string };
type Answer = Exclude<ScriptedResponse, { status: number }>;

function streamCompletion(res: ServerResponse, completion: Completion, answer: Answer, usage: Usage | undefined): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...completion, object: "chat.completion.chunk", choices, ...extra })}\n\n`);
  const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
    send([{ index: 0, delta: value, finish_reason: finishReason }]);

  delta({ role: "assistant", content: "" });
  if ("text" in answer) {
    for (const piece of answer.text.match(/\s*\S+\s*/g) ?? [answer.text]) delta({ content: piece });
    delta({}, "stop");
  } else {
    const { id, name, args } = toolCallOf(answer);
    if (answer.inOneChunk) {
      delta({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: args } }] });
    } else {
      delta({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] });
      const size = Math.max(1, Math.ceil(args.length / 3));
      for (let at = 0; at < args.length; at += size) {
        delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + size) } }] });
      }
    }
    delta({}, "tool_calls");
  }
  if (usage) send([], { usage });
  res.end("data: [DONE]\n\n");
}

function choiceFor(answer: Answer) {
  if ("text" in answer) {
    return { index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" };
  }
  const { id, name, args } = toolCallOf(answer);
  return {
    index: 0,
    message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: args } }] },
    finish_reason: "tool_calls",
  };
}

function toolCallOf(answer: Extract<Answer, { toolCall: unknown }>) {
  const { toolCall } = answer;
  const args = typeof toolCall.arguments === "string" ? toolCall.arguments : JSON.stringify(toolCall.arguments);
  return { id: toolCall.id ?? `call_test_${toolCall.name}`, name: toolCall.name, args };
}

type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

function usageFor(messages: unknown, answer: Answer): Usage {
  const prompt = Math.ceil(JSON.stringify(messages ?? []).length / 4);
  const completion = Math.ceil(JSON.stringify(answer).length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: "test_server_error", code: status } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
