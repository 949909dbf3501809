import type { OpenedAgent } from "../host/open-agent.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";
import type { TurnRow, TurnStatus } from "../store/types.ts";

/** What `ask` and `check` answer (spec/mcp-extensions.md, "Our MCP server"). */
export interface AskResult {
  status: "running" | "completed" | "error";
  sessionId: string;
  /** The turn's final text when completed; the text streamed so far while running. */
  reply?: string;
  errorMessage?: string;
}

const EVERY_TURN_STATUS: readonly TurnStatus[] = ["queued", "running", "completed", "failed", "cancelled", "interrupted"];

/**
 * Where one turn of a session stands (`turnId` undefined: the latest one),
 * read from the store so `check` works from any request, in any process.
 * Throws `not_found` / `forbidden` for a missing or foreign session.
 */
export async function askStatus(opened: OpenedAgent, principal: Principal, sessionId: string, turnId?: string): Promise<AskResult> {
  await opened.runtime.getSession(sessionId, principal);
  // The turns table, not the events: a turn's first event is written only once it starts running.
  const turn = turnId ? await opened.store.turns.get(turnId) : await latestTurn(opened, sessionId);
  if (!turn) return { status: "error", sessionId, errorMessage: `Session ${sessionId} has no turn.` };
  const events = (await opened.store.events.list(sessionId)).filter((event) => event.turnId === turn.id);
  if (turn.status === "queued" || turn.status === "running") {
    const reply = textSoFar(events);
    return reply ? { status: "running", sessionId, reply } : { status: "running", sessionId };
  }
  if (turn.status === "completed") {
    const completed = events.find((event) => event.type === "turn.completed");
    return { status: "completed", sessionId, reply: completed?.data.result ?? textSoFar(events) };
  }
  const failed = events.find((event) => event.type === "turn.failed");
  return { status: "error", sessionId, errorMessage: failed?.data.message ?? `The turn ended: ${turn.status}.` };
}

async function latestTurn(opened: OpenedAgent, sessionId: string): Promise<TurnRow | undefined> {
  // Oldest first by creation time then ULID, so the last one is the newest.
  return (await opened.store.turns.listByStatus(EVERY_TURN_STATUS, { sessionId })).at(-1);
}

/** The message text of a running turn: completed steps, then the deltas of the current one. */
function textSoFar(events: AnyBdkEvent[]): string {
  const steps: string[] = [];
  let current = "";
  for (const event of events) {
    if (event.type === "message.appended") current += event.data.delta;
    if (event.type === "message.completed") {
      if (event.data.text) steps.push(event.data.text);
      current = "";
    }
  }
  if (current) steps.push(current);
  return steps.join("\n\n");
}
