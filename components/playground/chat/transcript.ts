/**
 * Folds a session's events into what the Chat tab shows: user messages and
 * turns, each turn a sequence of reasoning, text and tool-call parts.
 * Pure and O(events), so it can rerun on every streamed frame.
 */
import type { AnyBdkEvent, TokenUsage } from "../../api/types.ts";
import type { SessionActivity } from "../session/session-status.ts";

/** `in_doubt`: a crash cut the call off; it may or may not have taken effect (until a person says which). */
export type ToolStatus = "running" | "awaiting_approval" | "awaiting_authorization" | "done" | "error" | "denied" | "in_doubt";

export interface ToolPart {
  kind: "tool";
  key: string;
  toolCallId: string;
  name: string;
  input: unknown;
  status: ToolStatus;
  output?: unknown;
  durationMs?: number;
  /** A fork's tool stub answered; the tool did not run. */
  stubbed?: boolean;
  /** Index of the `actions.requested` that asked for the call: where *Fork from here* cuts to run it again. */
  requestIndex?: number;
  approval?: { approvalId: string; resolved?: { approved: boolean; by?: string; reason?: string } };
  /** The call waits for its MCP connection to be authorized (`serve --dev`): Connect POSTs `authorizePath`. */
  authorization?: { connection: string; authorizePath: string };
  subagent?: { name: string; prompt?: string; result?: string; isError?: boolean; done: boolean };
  inDoubt?: { message: string; effect: "read" | "write"; resolved?: { resolution: "done" | "not_done"; by: string; note?: string } };
}

export type TurnPart =
  | { kind: "reasoning"; key: string; text: string; done: boolean }
  | { kind: "text"; key: string; text: string; done: boolean; interim: boolean }
  | { kind: "artifact"; key: string; id: string; title: string; artifactKind: string }
  | ToolPart;

/** `starting`: the message is stored (`message.received`) but the turn has recorded nothing else yet. */
export type TurnStatus = "starting" | "queued" | "running" | "completed" | "failed" | "cancelled" | "interrupted";

/** Why a turn ended early, as the playground says it: a user's Stop, a newer message, a server restart. */
export type TurnStop = "stopped" | "preempted" | "interrupted";

export interface TurnItem {
  kind: "turn";
  key: string;
  turnId: string;
  firstIndex: number;
  status: TurnStatus;
  model?: string;
  queuePosition?: number;
  parts: TurnPart[];
  usage?: Partial<TokenUsage>;
  durationMs?: number;
  error?: { code?: string; message?: string };
  stop?: TurnStop;
}

export interface UserItem {
  kind: "user";
  key: string;
  firstIndex: number;
  text: string;
  at: string;
  files?: string[];
}

export interface NoticeItem {
  kind: "notice";
  key: string;
  firstIndex: number;
  tone: "info" | "success" | "error";
  text: string;
}

export type TranscriptItem = UserItem | TurnItem | NoticeItem;

export interface Transcript {
  items: TranscriptItem[];
  title?: string;
  channel?: string;
  mode?: string;
  /** A turn is starting, queued or running. */
  busy: boolean;
  /** What the session is doing now: a call parked on an approval is "needs approval", not "running". */
  activity: SessionActivity;
  /** The session accepts no more messages (task session ended). */
  closed: boolean;
}

export function buildTranscript(events: readonly AnyBdkEvent[]): Transcript {
  const items: TranscriptItem[] = [];
  const turns = new Map<string, TurnItem>();
  const tools = new Map<string, ToolPart>();
  let current: TurnItem | undefined;
  let title: string | undefined;
  let channel: string | undefined;
  let mode: string | undefined;
  let closed = false;

  const turnFor = (event: AnyBdkEvent): TurnItem => {
    const id = event.turnId ?? current?.turnId ?? `turn@${event.index}`;
    let turn = turns.get(id);
    if (!turn) {
      turn = { kind: "turn", key: id, turnId: id, firstIndex: event.index, status: "running", parts: [] };
      turns.set(id, turn);
      items.push(turn);
    }
    current = turn;
    return turn;
  };

  const lastPart = (turn: TurnItem) => turn.parts[turn.parts.length - 1];

  const toolFor = (turn: TurnItem, toolCallId: string, name: string, input: unknown, index: number): ToolPart => {
    let tool = tools.get(toolCallId);
    if (!tool) {
      tool = { kind: "tool", key: toolCallId || `tool@${index}`, toolCallId, name, input, status: "running" };
      tools.set(toolCallId, tool);
      turn.parts.push(tool);
    }
    return tool;
  };

  for (const event of events) {
    switch (event.type) {
      case "session.started":
        title = event.data.title ?? title;
        channel = event.data.channel;
        mode = event.data.mode;
        break;
      case "message.received":
        items.push({ kind: "user", key: `user@${event.index}`, firstIndex: event.index, text: event.data.message ?? "", at: event.at, files: event.data.workspaceFiles });
        // The turn answering it exists from here on, so the chat shows it working before its first event.
        if (event.turnId) turnFor(event).status = "starting";
        break;
      case "turn.queued": {
        const turn = turnFor(event);
        turn.status = "queued";
        turn.queuePosition = event.data.position;
        break;
      }
      case "turn.started": {
        const turn = turnFor(event);
        turn.status = "running";
        turn.model = event.data.model;
        break;
      }
      case "reasoning.appended": {
        const turn = turnFor(event);
        const part = lastPart(turn);
        if (part?.kind === "reasoning" && !part.done) part.text += event.data.delta ?? "";
        else turn.parts.push({ kind: "reasoning", key: `r@${event.index}`, text: event.data.delta ?? "", done: false });
        break;
      }
      case "reasoning.completed": {
        const turn = turnFor(event);
        const part = lastPart(turn);
        if (part?.kind === "reasoning" && !part.done) {
          part.text = event.data.text ?? part.text;
          part.done = true;
        } else turn.parts.push({ kind: "reasoning", key: `r@${event.index}`, text: event.data.text ?? "", done: true });
        break;
      }
      case "message.appended": {
        const turn = turnFor(event);
        const part = lastPart(turn);
        if (part?.kind === "text" && !part.done) part.text += event.data.delta ?? "";
        else turn.parts.push({ kind: "text", key: `t@${event.index}`, text: event.data.delta ?? "", done: false, interim: false });
        break;
      }
      case "message.completed": {
        const turn = turnFor(event);
        const part = lastPart(turn);
        const interim = event.data.finishReason === "tool-calls";
        if (part?.kind === "text" && !part.done) {
          part.text = event.data.text ?? part.text;
          part.done = true;
          part.interim = interim;
        } else if (event.data.text) {
          turn.parts.push({ kind: "text", key: `t@${event.index}`, text: event.data.text, done: true, interim });
        }
        break;
      }
      case "actions.requested": {
        const turn = turnFor(event);
        for (const action of event.data.actions ?? []) toolFor(turn, action.toolCallId, action.name, action.input, event.index).requestIndex ??= event.index;
        break;
      }
      case "action.approval_requested": {
        const turn = turnFor(event);
        const tool = toolFor(turn, event.data.toolCallId, event.data.name, event.data.input, event.index);
        tool.approval = { approvalId: event.data.approvalId };
        if (tool.status === "running") tool.status = "awaiting_approval";
        break;
      }
      case "action.approval_resolved": {
        const tool = tools.get(event.data.toolCallId);
        if (!tool) break;
        tool.approval = { approvalId: event.data.approvalId, resolved: { approved: event.data.approved, by: event.data.by, reason: event.data.reason } };
        if (tool.status === "awaiting_approval") tool.status = event.data.approved ? "running" : "denied";
        break;
      }
      case "action.authorization_required": {
        // A subagent's own calls are private: its wait shows on the task call that runs it.
        const tool = tools.get(event.data.toolCallId) ?? runningSubagentCall(turnFor(event));
        if (!tool) break;
        tool.authorization = { connection: event.data.connection, authorizePath: event.data.authorizePath };
        if (tool.status === "running") tool.status = "awaiting_authorization";
        break;
      }
      case "action.result": {
        const turn = turnFor(event);
        const tool = toolFor(turn, event.data.toolCallId, event.data.name, undefined, event.index);
        tool.output = event.data.output;
        tool.durationMs = event.data.durationMs;
        if (event.data.stubbed) tool.stubbed = true;
        tool.status = tool.status === "denied" ? "denied" : event.data.isError ? "error" : "done";
        break;
      }
      case "action.in_doubt": {
        const tool = toolFor(turnFor(event), event.data.toolCallId, event.data.name, event.data.input, event.index);
        tool.status = "in_doubt";
        tool.inDoubt = { message: event.data.message, effect: event.data.effect };
        break;
      }
      case "action.in_doubt_resolved": {
        const tool = tools.get(event.data.toolCallId);
        if (tool?.inDoubt) tool.inDoubt = { ...tool.inDoubt, resolved: { resolution: event.data.resolution, by: event.data.by, note: event.data.note } };
        break;
      }
      case "subagent.called": {
        const turn = turnFor(event);
        const tool = toolFor(turn, event.data.toolCallId, "task", { prompt: event.data.prompt }, event.index);
        tool.subagent = { name: event.data.subagent, prompt: event.data.prompt, done: false };
        break;
      }
      case "subagent.completed": {
        const tool = tools.get(event.data.toolCallId);
        if (tool) tool.subagent = { ...(tool.subagent ?? { name: event.data.subagent }), name: event.data.subagent, result: event.data.result, isError: event.data.isError, done: true };
        break;
      }
      case "artifact.tagged": {
        const turn = turnFor(event);
        turn.parts.push({ kind: "artifact", key: `a@${event.index}`, id: event.data.id, title: event.data.title, artifactKind: event.data.kind });
        break;
      }
      case "turn.completed": {
        const turn = turnFor(event);
        turn.status = "completed";
        turn.usage = event.data.usage;
        turn.durationMs = event.data.durationMs;
        settleOpenParts(turn);
        break;
      }
      case "turn.failed": {
        const turn = turnFor(event);
        turn.status = event.data.status === "cancelled" || event.data.status === "interrupted" ? event.data.status : "failed";
        turn.error = { code: event.data.code, message: event.data.message };
        turn.stop = stopOf(event.data.status, event.data.code);
        settleOpenParts(turn);
        break;
      }
      case "session.completed":
        closed = true;
        items.push({ kind: "notice", key: `n@${event.index}`, firstIndex: event.index, tone: "success", text: "Session completed." });
        break;
      case "session.failed":
        closed = true;
        items.push({ kind: "notice", key: `n@${event.index}`, firstIndex: event.index, tone: "error", text: `Session failed: ${event.data.message ?? event.data.code}` });
        break;
      default:
        break;
    }
  }

  const busy = [...turns.values()].some((turn) => turn.status === "starting" || turn.status === "running" || turn.status === "queued");
  return { items, title, channel, mode, busy, closed, activity: activityOf(items, closed) };
}

function stopOf(status: string | undefined, code: string | undefined): TurnStop | undefined {
  if (status === "interrupted") return "interrupted";
  if (status !== "cancelled") return undefined;
  return code === "preempted" ? "preempted" : "stopped";
}

function activityOf(items: TranscriptItem[], closed: boolean): SessionActivity {
  const notice = items.findLast((item) => item.kind === "notice");
  if (closed) return notice?.kind === "notice" && notice.tone === "error" ? "failed" : "completed";
  // A parked approval outlives its turn (it stays resolvable after a restart): any pending one counts.
  const turns = items.filter((item): item is TurnItem => item.kind === "turn");
  if (turns.some((turn) => turn.parts.some((part) => part.kind === "tool" && part.status === "awaiting_approval"))) return "needs approval";
  if (turns.some((turn) => turn.status === "starting" || turn.status === "running")) return "running";
  if (turns.some((turn) => turn.status === "queued")) return "queued";
  return "idle";
}

/** A turn that ended leaves nothing spinning: open text/reasoning is final, unfinished calls are marked failed. */
function settleOpenParts(turn: TurnItem): void {
  for (const part of turn.parts) {
    if (part.kind === "text" || part.kind === "reasoning") part.done = true;
    // Parked approvals outlive the turn (they stay resolvable after a restart); a running call, or
    // one waiting for authorization (nothing durable), does not.
    else if (part.kind === "tool" && (part.status === "running" || part.status === "awaiting_authorization") && turn.status !== "completed") {
      part.status = "error";
    }
  }
}

/** The `task` call of a turn whose subagent is still working, if any. */
function runningSubagentCall(turn: TurnItem): ToolPart | undefined {
  for (let i = turn.parts.length - 1; i >= 0; i--) {
    const part = turn.parts[i];
    if (part.kind === "tool" && part.subagent && !part.subagent.done) return part;
  }
  return undefined;
}
