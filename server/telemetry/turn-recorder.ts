import type { AnyBdkEvent, EventDataByType, EventDraft, EventType } from "../protocol/events.ts";

/** An event as telemetry keeps it: its type, payload and when it happened (epoch ms). */
export type Observation = { [T in EventType]: { type: T; data: EventDataByType[T]; time: number } }[EventType];

/** Everything one turn recorded, handed over when it ends. */
export interface TurnRecord {
  sessionId: string;
  turnId: string;
  /** The turn's recorded events, in order (streamed deltas left out). */
  observations: Observation[];
  /** The subagents' own (unrecorded) events, by the parent's `task` call id. */
  subagents: Map<string, Observation[]>;
}

/** Deltas repeat what `message.completed` / `reasoning.completed` carry whole; session events belong to no turn. */
const IGNORED = new Set<EventType>(["message.appended", "reasoning.appended", "session.started", "session.waiting", "session.completed", "session.failed"]);

/**
 * Turns left open (a session deleted mid-turn never records its end) are
 * forgotten oldest first beyond this many, so a long-lived server's memory
 * stays bounded.
 */
const MAX_OPEN = 10_000;

/**
 * Collects each turn's events from the runtime's recorded stream (and the
 * subagents' private ones) and hands the turn over whole when it ends: spans
 * are built once, with explicit start and end times, instead of being
 * threaded through the harness.
 */
export class TurnRecorder {
  private readonly open = new Map<string, TurnRecord>();
  private readonly subagents = new Map<string, Observation[]>();

  constructor(private readonly onTurn: (record: TurnRecord) => void) {}

  /** `SessionRuntime.reader.observe`: events after they are stored; their `at` is when. */
  recorded(sessionId: string, events: readonly AnyBdkEvent[]): void {
    for (const event of events) {
      if (!event.turnId || IGNORED.has(event.type)) continue;
      const record = this.turn(sessionId, event.turnId);
      record.observations.push({ type: event.type, data: event.data, time: Date.parse(event.at) } as Observation);
      if (event.type === "turn.completed" || event.type === "turn.failed") this.finish(record);
    }
  }

  /** A subagent's event as it is emitted (never stored, so stamped here). */
  subagentEvent(sessionId: string, parentToolCallId: string, draft: EventDraft): void {
    if (IGNORED.has(draft.type)) return;
    const key = subagentKey(sessionId, parentToolCallId);
    let observations = this.subagents.get(key);
    if (!observations) {
      observations = [];
      this.subagents.set(key, observations);
      evictOldest(this.subagents);
    }
    observations.push({ type: draft.type, data: draft.data, time: performance.timeOrigin + performance.now() } as Observation);
  }

  private turn(sessionId: string, turnId: string): TurnRecord {
    let record = this.open.get(turnId);
    if (!record) {
      record = { sessionId, turnId, observations: [], subagents: new Map() };
      this.open.set(turnId, record);
      evictOldest(this.open);
    }
    return record;
  }

  private finish(record: TurnRecord): void {
    this.open.delete(record.turnId);
    for (const observation of record.observations) {
      if (observation.type !== "subagent.called") continue;
      const key = subagentKey(record.sessionId, observation.data.toolCallId);
      const events = this.subagents.get(key);
      if (!events) continue;
      this.subagents.delete(key);
      record.subagents.set(observation.data.toolCallId, events);
    }
    this.onTurn(record);
  }
}

function subagentKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}

function evictOldest(map: Map<string, unknown>): void {
  if (map.size <= MAX_OPEN) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}
