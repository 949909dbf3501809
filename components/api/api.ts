import { apiFetch, apiJson, jsonBody } from "./http.ts";
import { readNdjson } from "./ndjson.ts";
import type {
  AgentInfo,
  AnyBdkEvent,
  CreateSessionResponse,
  EvalComparison,
  EvalRun,
  EvalSummary,
  FollowUpResponse,
  ForkRequest,
  ForkResponse,
  LogLine,
  ModelOffer,
  MemoryNote,
  InDoubtCall,
  PendingApproval,
  ReminderInfo,
  RunDiff,
  SessionSummary,
  SessionsResponse,
  TurnTrace,
} from "./types.ts";
import type { InDoubtResolution } from "../../server/protocol/events.ts";

/** The API base of a playground page: `/acme/playground` → `/acme`, `/playground` → ``. */
export function apiBaseFromPath(pathname: string): string {
  return pathname.replace(/\/+$/, "").replace(/\/playground$/, "");
}

const enc = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** Typed wrappers over one agent's `/v1` routes. */
export function createApi(base: string) {
  const v1 = (path: string) => `${base}/v1${path}`;

  async function readEvents(url: string, onEvent: (event: AnyBdkEvent) => void, signal?: AbortSignal) {
    const res = await apiFetch(url, { signal, headers: { Accept: "application/x-ndjson" } });
    await readNdjson(res, (value) => onEvent(value as AnyBdkEvent));
  }

  return {
    base,
    url: v1,
    info: (signal?: AbortSignal) => apiJson<AgentInfo>(v1("/info"), { signal }),
    /** What the model is offered on a turn: of `sessionId`, or of a new session. */
    modelOffer: (sessionId: string | undefined, signal?: AbortSignal) => apiJson<ModelOffer>(v1(`/agent/offer${query({ sessionId })}`), { signal }),

    createSession: (message: string) => apiJson<CreateSessionResponse>(v1("/session"), jsonBody("POST", { message })),
    followUp: (sessionId: string, message: string, continuationToken: string) =>
      apiJson<FollowUpResponse>(v1(`/session/${enc(sessionId)}`), jsonBody("POST", { message, continuationToken })),
    /** The session's current continuation token, for its owner (or, under `--dev` on loopback, anyone the playground shows it to). */
    continuationToken: (sessionId: string) =>
      apiJson<{ ok: boolean; continuationToken: string | null }>(v1(`/session/${enc(sessionId)}/token`)),
    fork: (sessionId: string, request: ForkRequest) => apiJson<ForkResponse>(v1(`/session/${enc(sessionId)}/fork`), jsonBody("POST", request)),
    /** What a turn's model steps were sent and answered, and its tool calls as checked (the Trace tab's detail). */
    turnTrace: (sessionId: string, turnId: string, signal?: AbortSignal) =>
      apiJson<TurnTrace>(v1(`/session/${enc(sessionId)}/turns/${enc(turnId)}/trace`), { signal }),
    diff: (before: string, after: string, signal?: AbortSignal) =>
      apiJson<RunDiff>(v1(`/session/${enc(before)}/diff/${enc(after)}`), { signal }),
    /** Save as eval case (`--dev`): writes `evals/<name>.eval.ts`; 409 `already_exists` unless `overwrite`. */
    saveEvalCase: (sessionId: string, name: string, overwrite = false) =>
      apiJson<{ ok: boolean; file: string; caseIds: string[] }>(v1("/dev/evals/cases"), jsonBody("POST", { sessionId, name, overwrite })),
    stop: (sessionId: string) => apiJson<{ ok: boolean; status?: string }>(v1(`/session/${enc(sessionId)}/stop`), jsonBody("POST")),
    session: (sessionId: string, signal?: AbortSignal) =>
      apiJson<{ ok: boolean; session: SessionSummary }>(v1(`/session/${enc(sessionId)}`), { signal }),
    sessions: (params: { q?: string; limit?: number }, signal?: AbortSignal) =>
      apiJson<SessionsResponse>(v1(`/sessions${query(params)}`), { signal }),

    /** The NDJSON dump from `startIndex`, then closes. */
    events: (sessionId: string, startIndex: number, onEvent: (event: AnyBdkEvent) => void, signal?: AbortSignal) =>
      readEvents(v1(`/session/${enc(sessionId)}/events${query({ startIndex })}`), onEvent, signal),
    /** Replays from `startIndex`, then follows live until the server closes or `signal` aborts. */
    stream: (sessionId: string, startIndex: number, onEvent: (event: AnyBdkEvent) => void, signal?: AbortSignal) =>
      readEvents(v1(`/session/${enc(sessionId)}/stream${query({ startIndex })}`), onEvent, signal),

    approvals: (signal?: AbortSignal) => apiJson<{ ok: boolean; approvals: PendingApproval[]; inDoubt?: InDoubtCall[] }>(v1("/approvals"), { signal }),
    /** A person checked a call in doubt: `done` (it took effect) or `not_done`. */
    resolveInDoubt: (sessionId: string, toolCallId: string, resolution: InDoubtResolution, note?: string) =>
      apiJson<{ ok: boolean }>(v1(`/session/${enc(sessionId)}/in-doubt/${enc(toolCallId)}`), jsonBody("POST", note ? { resolution, note } : { resolution })),
    resolveApproval: (sessionId: string, approvalId: string, approved: boolean, reason?: string) =>
      apiJson<{ ok: boolean }>(
        v1(`/session/${enc(sessionId)}/approvals/${enc(approvalId)}`),
        jsonBody("POST", reason ? { approved, reason } : { approved }),
      ),

    logs: (since: string | undefined, signal?: AbortSignal) =>
      apiJson<{ ok: boolean; logs: LogLine[] }>(v1(`/logs${query({ since })}`), { signal }),

    /** Discovered eval cases (`cases`; some servers call the list `evals`). */
    evals: (signal?: AbortSignal) => apiJson<{ ok: boolean; cases?: EvalSummary[]; evals?: EvalSummary[] }>(v1("/evals"), { signal }),
    evalRuns: (signal?: AbortSignal) => apiJson<{ ok: boolean; runs: EvalRun[] }>(v1("/evals/runs"), { signal }),
    evalRun: (runId: string, signal?: AbortSignal) =>
      apiJson<{ ok: boolean; run: EvalRun; cases?: EvalRun["cases"] }>(v1(`/evals/runs/${enc(runId)}`), { signal }),
    compareEvalRuns: (before: string, after: string, signal?: AbortSignal) =>
      apiJson<{ ok: boolean } & EvalComparison>(v1(`/evals/runs/${enc(before)}/compare/${enc(after)}`), { signal }),
    startEvalRun: (selection: { ids?: string[]; tags?: string[]; name?: string }) =>
      apiJson<{ ok: boolean; runId?: string; run?: EvalRun; id?: string }>(v1("/evals/runs"), jsonBody("POST", selection)),

    memory: (signal?: AbortSignal) => apiJson<{ ok: boolean; notes: MemoryNote[] }>(v1("/memory"), { signal }),
    /** Forgets one note, or (without an id) every note the caller may see. */
    forgetMemory: (noteId?: string) =>
      apiJson<{ ok: boolean; forgotten: number }>(v1(noteId ? `/memory/${enc(noteId)}` : "/memory"), { method: "DELETE" }),

    /** Connect (`--dev`): starts the OAuth flow of a connection; `authorizePath` comes from `action.authorization_required`. */
    authorizeConnection: (authorizePath: string) =>
      apiJson<{ ok: boolean; authorizationUrl?: string; authorized?: boolean }>(`${base}${authorizePath}`, jsonBody("POST")),

    /** The dev-only schedule list: answers under `--dev` (where nothing fires on its own), 404 otherwise. */
    devSchedules: (signal?: AbortSignal) => apiJson<{ ok: boolean; schedules: unknown[] }>(v1("/dev/schedules"), { signal }),

    /** Armed reminders (`--dev` only, 404 otherwise). */
    devReminders: (signal?: AbortSignal) => apiJson<{ ok: boolean; reminders: ReminderInfo[] }>(v1("/dev/reminders"), { signal }),
    fireReminder: (id: string) =>
      apiJson<{ ok?: boolean; reminderId: string; sessionIds: string[] }>(v1(`/dev/reminders/${enc(id)}`), jsonBody("POST")),

    fireSchedule: (name: string) =>
      apiJson<{ ok?: boolean; scheduleId: string; sessionIds: string[] }>(v1(`/dev/schedules/${enc(name)}`), jsonBody("POST")),

    /** Mount path of a custom channel route (`/v1/channels/<id>/<route>`); `info` may report it already mounted. */
    channelRouteUrl: (channelId: string, path: string) => {
      if (path.startsWith("/v1/")) return `${base}${path}`;
      const suffix = !path || path === "/" ? "" : path.startsWith("/") ? path : `/${path}`;
      return v1(`/channels/${enc(channelId)}${suffix}`);
    },
  };
}

export type Api = ReturnType<typeof createApi>;
