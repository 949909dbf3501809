import { MAX_STORED_STRING, type ModelCall, type ModelStepRecord, type OfferedTool } from "../protocol/model-calls.ts";
import type { StoreContext } from "./context.ts";

/** What each model step was sent and answered (schema.ts `modelCalls`). */
export interface ModelCallsRepository {
  /**
   * Stores a step of a turn (`scope`: "" for the turn's own steps, the `task`
   * call id for a subagent's). False, and nothing changed, when that step is
   * stored already.
   */
  append(sessionId: string, turnId: string, scope: string, record: ModelStepRecord): boolean;
  /** The turn's steps and its subagents' steps, whole again, in the order they ran. */
  ofTurn(sessionId: string, turnId: string): ModelCall[];
}

/** The last row written per chain, so the next one stores only what changed. Bounded: a forgotten chain just stores its next row whole. */
interface ChainTail {
  system: string;
  tools: string;
  messages: string[];
}
const MAX_CHAINS = 512;

interface StoredRow {
  turn_id: string;
  scope: string;
  step: number;
  started_at: string;
  duration_ms: number;
  system: string | null;
  tools: string | null;
  request: string;
  response: string;
}

/** A stored request: the first `base` messages of the chain's previous row, then `messages`. */
interface StoredRequest {
  base: number;
  messages: unknown[];
  params: ModelCall["request"]["params"];
}

export function createModelCallsRepository(ctx: StoreContext): ModelCallsRepository {
  const { sqlite } = ctx;
  const tails = new Map<string, ChainTail>();
  const insert = sqlite.prepare(
    `INSERT INTO model_calls (session_id, turn_id, scope, step, started_at, duration_ms, system, tools, request, response)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  // The turn's own chain up to and including the turn, and the chains of its subagents (rowid: the order they were written).
  const chainRows = sqlite.prepare<[{ session: string; turn: string }], StoredRow>(
    `SELECT turn_id, scope, step, started_at, duration_ms, system, tools, request, response FROM model_calls
     WHERE session_id = @session AND (scope = '' OR scope IN (SELECT scope FROM model_calls WHERE session_id = @session AND turn_id = @turn))
       AND rowid <= (SELECT max(rowid) FROM model_calls WHERE session_id = @session AND turn_id = @turn)
     ORDER BY rowid`,
  );

  return {
    append(sessionId, turnId, scope, record) {
      const chain = `${sessionId}\0${scope}`;
      const previous = tails.get(chain);
      const system = bounded(record.request.system) as string;
      const tools = toolsJson(record.request.tools);
      const messages = record.request.messages.map(messageJson);
      let base = 0;
      if (previous) while (base < previous.messages.length && base < messages.length && previous.messages[base] === messages[base]) base++;
      const request = `{"base":${base},"messages":[${messages.slice(base).join(",")}],"params":${stringify(record.request.params)}}`;
      const changes = insert.run(
        sessionId,
        turnId,
        scope,
        record.step,
        record.startedAt,
        record.durationMs,
        previous?.system === system ? null : system,
        previous?.tools === tools ? null : tools,
        request,
        stringify(record.response),
      ).changes;
      if (changes !== 1) return false;
      tails.delete(chain);
      tails.set(chain, { system, tools, messages });
      if (tails.size > MAX_CHAINS) tails.delete(tails.keys().next().value!);
      return true;
    },

    ofTurn(sessionId, turnId) {
      const calls: ModelCall[] = [];
      const folded = new Map<string, { system: string; tools: OfferedTool[]; messages: unknown[] }>();
      for (const row of chainRows.all({ session: sessionId, turn: turnId })) {
        const request = JSON.parse(row.request) as StoredRequest;
        const previous = folded.get(row.scope);
        const state = {
          system: row.system ?? previous?.system ?? "",
          tools: row.tools === null ? (previous?.tools ?? []) : (JSON.parse(row.tools) as OfferedTool[]),
          messages: [...(previous?.messages.slice(0, request.base) ?? []), ...request.messages],
        };
        folded.set(row.scope, state);
        if (row.turn_id !== turnId) continue;
        calls.push({
          turnId,
          scope: row.scope,
          step: row.step,
          startedAt: row.started_at,
          durationMs: row.duration_ms,
          request: { system: state.system, messages: state.messages, tools: state.tools, params: request.params },
          response: JSON.parse(row.response) as ModelCall["response"],
        });
      }
      return calls;
    },
  };
}

/** A message is serialized once, however many later steps resend it (the loop passes the same objects). */
const messageStrings = new WeakMap<object, string>();
function messageJson(message: unknown): string {
  if (typeof message !== "object" || message === null) return stringify(message);
  let text = messageStrings.get(message);
  if (text === undefined) {
    text = stringify(message);
    messageStrings.set(message, text);
  }
  return text;
}

const toolStrings = new WeakMap<readonly OfferedTool[], string>();
function toolsJson(tools: readonly OfferedTool[]): string {
  let text = toolStrings.get(tools);
  if (text === undefined) {
    text = stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
    toolStrings.set(tools, text);
  }
  return text;
}

/** JSON with long strings cut (their original length stated) and binary parts (tool images) named, not inlined. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, part: unknown) => bounded(part)) ?? "null";
}

function bounded(part: unknown): unknown {
  if (typeof part === "string" && part.length > MAX_STORED_STRING) {
    return `${part.slice(0, MAX_STORED_STRING)}… [truncated: ${part.length} characters in all]`;
  }
  if (part instanceof Uint8Array) return `[binary: ${part.byteLength} bytes]`;
  return part;
}
