import { createHash } from "node:crypto";
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
  /**
   * The steps of these turns and of their subagents, whole again, in the
   * order they ran. Several turns are read in one pass over their chains (a
   * fork copies every turn it inherits: one read per turn would reread the
   * session's chain from its start each time).
   */
  ofTurns(sessionId: string, turnIds: readonly string[]): ModelCall[];
  /**
   * Copies the rows of the turns a fork inherits into the fork's session, in
   * the database (one `INSERT … SELECT`: a long session's rows are never
   * read into the process), under the fork's turn ids; returns how many.
   * The rows stay as stored (what changed along each chain): the copied
   * turns are every chain's first rows in the fork, so they fold the same.
   */
  copyToFork(sourceId: string, forkId: string, turns: readonly ForkedTurn[]): number;
}

/** A turn a fork inherits: its rows are copied under `forkTurnId`. */
export interface ForkedTurn {
  sourceTurnId: string;
  forkTurnId: string;
  /** The cut turn keeps only the rows of the steps (`scope` "") and subagent calls (`scope`: the call id) whose answer the fork holds. */
  keeps?: { steps: readonly number[]; scopes: readonly string[] };
}

/** The turns as both dialects' copy query reads them (SQLite's json_each, Postgres's jsonb_to_recordset). */
export function forkedTurnsJson(turns: readonly ForkedTurn[]): string {
  return JSON.stringify(turns.map(({ sourceTurnId, forkTurnId, keeps }) => ({ source_turn: sourceTurnId, fork_turn: forkTurnId, ...(keeps ? { keeps } : {}) })));
}

/** The last row written per chain, so the next one stores only what changed. Bounded: a forgotten chain just stores its next row whole. */
/** Digests, not texts: what a chain last stored is only compared, and whole histories of 512 chains would be a lot to keep. */
interface ChainTail {
  system: string;
  tools: string;
  messages: string[];
}
const MAX_CHAINS = 512;

/** A stored row as the chain query reads it (column names as in the table). */
export type StoredRow = {
  turn_id: string;
  scope: string;
  step: number;
  started_at: string;
  duration_ms: number;
  system: string | null;
  tools: string | null;
  request: string;
  response: string;
};

/** A stored request: the first `base` messages of the chain's previous row, then `messages`. */
interface StoredRequest {
  base: number;
  messages: unknown[];
  params: ModelCall["request"]["params"];
}

/** A step's row as both dialects store it: the system prompt and tools only when they changed along the chain. */
export interface EncodedModelCall {
  step: number;
  startedAt: string;
  durationMs: number;
  system: string | null;
  tools: string | null;
  request: string;
  response: string;
}

/**
 * The last row written per chain (session and scope), so each new row stores
 * only what changed: shared by both dialects' repositories.
 */
export class ModelCallChains {
  private readonly tails = new Map<string, ChainTail>();

  /** The row to store for `record`; `stored()` once it is written (a row not written must not become the chain's base). */
  encode(sessionId: string, scope: string, record: ModelStepRecord): { row: EncodedModelCall; stored: () => void } {
    const chain = `${sessionId}\0${scope}`;
    const previous = this.tails.get(chain);
    const system = bounded(record.request.system) as string;
    const tools = toolsJson(record.request.tools);
    const messages = record.request.messages.map(messageJson);
    const tail: ChainTail = { system: digest(system), tools: digest(tools), messages: record.request.messages.map(messageDigest) };
    let base = 0;
    if (previous) while (base < previous.messages.length && base < messages.length && previous.messages[base] === tail.messages[base]) base++;
    const row: EncodedModelCall = {
      step: record.step,
      startedAt: record.startedAt,
      durationMs: record.durationMs,
      system: previous?.system === tail.system ? null : system,
      tools: previous?.tools === tail.tools ? null : tools,
      request: `{"base":${base},"messages":[${messages.slice(base).join(",")}],"params":${stringify(record.request.params)}}`,
      response: stringify(record.response),
    };
    const stored = () => {
      this.tails.delete(chain);
      this.tails.set(chain, tail);
      if (this.tails.size > MAX_CHAINS) this.tails.delete(this.tails.keys().next().value!);
    };
    return { row, stored };
  }
}

/** The rows of a turn's chains (its own and its subagents', in the order written) folded back into whole requests; only `turnId`'s are returned. */
export function foldChains(rows: Iterable<StoredRow>, turnIds: readonly string[]): ModelCall[] {
  const wanted = new Set(turnIds);
  const calls: ModelCall[] = [];
  const folded = new Map<string, { system: string; tools: OfferedTool[]; messages: unknown[] }>();
  for (const row of rows) {
    const request = JSON.parse(row.request) as StoredRequest;
    const previous = folded.get(row.scope);
    const state = {
      system: row.system ?? previous?.system ?? "",
      tools: row.tools === null ? (previous?.tools ?? []) : (JSON.parse(row.tools) as OfferedTool[]),
      messages: [...(previous?.messages.slice(0, request.base) ?? []), ...request.messages],
    };
    folded.set(row.scope, state);
    if (!wanted.has(row.turn_id)) continue;
    calls.push({
      turnId: row.turn_id,
      scope: row.scope,
      step: row.step,
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      request: { system: state.system, messages: state.messages, tools: state.tools, params: request.params },
      response: JSON.parse(row.response) as ModelCall["response"],
    });
  }
  return calls;
}

export function createModelCallsRepository(ctx: StoreContext): ModelCallsRepository {
  const { sqlite } = ctx;
  const chains = new ModelCallChains();
  const insert = sqlite.prepare(
    `INSERT INTO model_calls (session_id, turn_id, scope, step, started_at, duration_ms, system, tools, request, response)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  // The turns' own chain up to and including the last of them, and the chains of their subagents (rowid: the order they were written; @turns: a JSON array).
  const chainRows = sqlite.prepare<[{ session: string; turns: string }], StoredRow>(
    `WITH wanted AS (SELECT rowid, scope FROM model_calls WHERE session_id = @session AND turn_id IN (SELECT value FROM json_each(@turns)))
     SELECT turn_id, scope, step, started_at, duration_ms, system, tools, request, response FROM model_calls
     WHERE session_id = @session AND (scope = '' OR scope IN (SELECT scope FROM wanted))
       AND rowid <= (SELECT max(rowid) FROM wanted)
     ORDER BY rowid`,
  );

  // rowid order: each chain's rows land in the fork in the order they were written, so they fold as in the source.
  // CROSS JOIN keeps the turns outside: one primary-key lookup per turn, not the turns' JSON scanned for every row of the session.
  const copy = sqlite.prepare<[{ source: string; fork: string; turns: string }]>(
    `INSERT INTO model_calls (session_id, turn_id, scope, step, started_at, duration_ms, system, tools, request, response)
     SELECT @fork, t.fork_turn, m.scope, m.step, m.started_at, m.duration_ms, m.system, m.tools, m.request, m.response
     FROM (SELECT json_extract(value, '$.source_turn') AS source_turn, json_extract(value, '$.fork_turn') AS fork_turn, json_extract(value, '$.keeps') AS keeps
           FROM json_each(@turns)) t
     CROSS JOIN model_calls m ON m.session_id = @source AND m.turn_id = t.source_turn
     WHERE t.keeps IS NULL
        OR (m.scope = '' AND m.step IN (SELECT value FROM json_each(t.keeps, '$.steps')))
        OR m.scope IN (SELECT value FROM json_each(t.keeps, '$.scopes'))
     ORDER BY m.rowid`,
  );

  return {
    append(sessionId, turnId, scope, record) {
      const { row, stored } = chains.encode(sessionId, scope, record);
      const { step, startedAt, durationMs, system, tools, request, response } = row;
      const changes = insert.run(sessionId, turnId, scope, step, startedAt, durationMs, system, tools, request, response).changes;
      if (changes !== 1) return false;
      // A row rolled back with its transaction (the step's events failed to store) must not become the base of the chain's next row.
      ctx.tx.afterCommit(stored);
      return true;
    },

    ofTurns(sessionId, turnIds) {
      if (turnIds.length === 0) return [];
      return foldChains(chainRows.all({ session: sessionId, turns: JSON.stringify(turnIds) }), turnIds);
    },

    copyToFork(sourceId, forkId, turns) {
      if (turns.length === 0) return 0;
      return copy.run({ source: sourceId, fork: forkId, turns: forkedTurnsJson(turns) }).changes;
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

/** Like the text, a message's digest is computed once however many steps resend it. */
const messageDigests = new WeakMap<object, string>();
function messageDigest(message: unknown): string {
  if (typeof message !== "object" || message === null) return digest(messageJson(message));
  let value = messageDigests.get(message);
  if (value === undefined) {
    value = digest(messageJson(message));
    messageDigests.set(message, value);
  }
  return value;
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
  // `this[key]`, not the value passed: JSON.stringify hands a replacer what toJSON made, and a Buffer's is an array of numbers.
  return JSON.stringify(value, function (this: Record<string, unknown>, key, part: unknown) {
    return bounded(key === "" ? part : this[key]);
  }) ?? "null";
}

/** A short, collision-safe stand-in for a text the chain only compares. */
const digest = (text: string) => createHash("sha256").update(text).digest("base64");

function bounded(part: unknown): unknown {
  if (typeof part === "string" && part.length > MAX_STORED_STRING) {
    return `${part.slice(0, MAX_STORED_STRING)}… [truncated: ${part.length} characters in all]`;
  }
  if (part instanceof Uint8Array) return `[binary: ${part.byteLength} bytes]`;
  return part;
}
