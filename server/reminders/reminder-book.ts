/**
 * `host.reminders`: creating, listing and cancelling reminders. Everything
 * but an inline `run` is stored in the state database, so it survives a
 * restart; firing them is the job of `ReminderTimers` and `fireReminder`.
 */
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { JsonObject, JsonValue, ReminderInput, ReminderRecord, RemindersApi } from "../authoring/types.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { Clock } from "../schedules/clock.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { ReminderRow } from "../store/types.ts";
import { firstFireAt, reminderRecord, type StoredReminder, timingOf } from "./reminder-spec.ts";

export type ReminderRun = NonNullable<ReminderInput["run"]>;

export interface ReminderBookOptions {
  store: AsyncStore;
  /** The agent's named reminder handlers (`bot/reminders/`). */
  agent: () => Pick<ResolvedAgent, "reminders">;
  clock: Clock;
}

type ListFilter = Parameters<RemindersApi["list"]>[0];

export class ReminderBook implements RemindersApi {
  /** Inline `run` handlers of this process, by reminder id. */
  private readonly runs = new Map<string, ReminderRun>();
  private readonly listeners = new Set<(row: ReminderRow) => void>();

  constructor(private readonly options: ReminderBookOptions) {}

  // The RemindersApi methods are bound: user code may pass `host.reminders.create` around on its own.
  readonly create = async (input: ReminderInput): Promise<{ id: string }> => ({ id: (await this.createRow(input)).id });

  /** Creates it and returns the stored row (tools, the serve handle). */
  async createRow(input: ReminderInput, principal?: Principal): Promise<ReminderRow> {
    const { store, clock } = this.options;
    const timing = timingOf(input);
    const forms = (["prompt", "handler", "run"] as const).filter((form) => input[form] !== undefined);
    if (forms.length !== 1) {
      throw new BdkError("invalid_request", "A reminder takes exactly one of prompt, handler or run.");
    }
    if (input.prompt !== undefined && (typeof input.prompt !== "string" || !input.prompt.trim())) {
      throw new BdkError("invalid_request", "prompt must be a non-empty string.");
    }
    if (input.run !== undefined && typeof input.run !== "function") {
      throw new BdkError("invalid_request", "run must be a function.");
    }
    if (input.args !== undefined && !isJsonObject(input.args)) {
      throw new BdkError("invalid_request", "args must be a plain JSON object (strings, numbers, booleans, null, arrays, objects).");
    }

    const conversation = await this.conversationOf(input);
    const spec: StoredReminder = {
      purpose: input.purpose,
      ...conversation,
      timing,
      prompt: input.prompt,
      until: input.until,
      handler: input.handler === undefined ? undefined : this.handlerName(input.handler),
      anonymous: input.run ? true : undefined,
      args: input.args,
      principal: principal ?? conversation.principal,
    };
    const row = await store.reminders.create({
      spec: JSON.parse(JSON.stringify(spec)) as JsonValue,
      nextFireAt: firstFireAt(timing, clock.now()).toISOString(),
    });
    if (input.run) this.runs.set(row.id, input.run);
    this.changed(row);
    return row;
  }

  readonly list = async (filter: ListFilter = {}): Promise<ReminderRecord[]> => (await this.armed(filter)).map(reminderRecord);

  /** Armed reminders, soonest first. A `sessionId` filter also finds those bound to the session's channel token. */
  async armed(filter: ListFilter = {}): Promise<ReminderRow[]> {
    const session = filter.sessionId === undefined ? undefined : await this.options.store.sessions.get(filter.sessionId);
    const ofSession = (spec: StoredReminder) =>
      spec.sessionId === filter.sessionId ||
      (session !== undefined && spec.channelId === session.channel && spec.continuationToken !== undefined && spec.continuationToken === session.continuationToken);
    return (await this.options.store.reminders.list({ status: "armed" })).filter((row) => {
      const spec = row.spec as unknown as StoredReminder;
      return (
        (filter.continuationToken === undefined || spec.continuationToken === filter.continuationToken) &&
        (filter.channelId === undefined || spec.channelId === filter.channelId) &&
        (filter.sessionId === undefined || ofSession(spec))
      );
    });
  }

  readonly cancel = async (id: string): Promise<void> => {
    const row = await this.get(id);
    if (row.status !== "armed") return;
    const updated = await this.options.store.reminders.update(id, { status: "cancelled", nextFireAt: null });
    if (updated) this.changed(updated);
  };

  async get(id: string): Promise<ReminderRow> {
    const row = await this.options.store.reminders.get(id);
    if (!row) throw new BdkError("not_found", `No reminder ${id}.`);
    return row;
  }

  runOf(id: string): ReminderRun | undefined {
    return this.runs.get(id);
  }

  /** Records a change made outside `create`/`cancel` (a firing) and tells the listeners. */
  changed(row: ReminderRow): void {
    if (row.status !== "armed") this.runs.delete(row.id);
    for (const listener of this.listeners) listener(row);
  }

  onChange(listener: (row: ReminderRow) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async conversationOf(input: ReminderInput): Promise<Pick<StoredReminder, "channelId" | "continuationToken" | "sessionId" | "principal">> {
    if (input.sessionId !== undefined) {
      const session = await this.options.store.sessions.get(input.sessionId);
      if (!session) throw new BdkError("not_found", `No session ${input.sessionId}.`);
      return {
        channelId: session.channel,
        continuationToken: session.continuationToken ?? undefined,
        sessionId: session.id,
        principal: session.principal,
      };
    }
    if (typeof input.channelId !== "string" || !input.channelId) {
      throw new BdkError("invalid_request", "A reminder needs channelId (with its continuationToken) or sessionId.");
    }
    const session = input.continuationToken
      ? await this.options.store.sessions.findByToken(input.channelId, input.continuationToken)
      : undefined;
    return {
      channelId: input.channelId,
      continuationToken: input.continuationToken,
      sessionId: session?.id,
      principal: session?.principal,
    };
  }

  /**
   * A named handler is the default export of `bot/reminders/<name>.ts`, found
   * by identity. A copy loaded outside the agent (the caller imported the file
   * itself) is matched by its `run` source; a string is taken as the name.
   */
  private handlerName(handler: unknown): string {
    const reminders = this.options.agent().reminders;
    if (typeof handler === "string") {
      if (reminders.has(handler)) return handler;
      throw new BdkError("invalid_request", `No reminder handler "${handler}" in bot/reminders/ (found: ${[...reminders.keys()].join(", ") || "none"}).`);
    }
    for (const [name, definition] of reminders) if (definition === handler) return name;
    const run = (handler as Partial<ReminderDefinition> | null)?.run;
    if (typeof run === "function") {
      const source = String(run);
      const same = [...reminders].filter(([, definition]) => String(definition.run) === source);
      if (same.length === 1) return same[0][0];
    }
    throw new BdkError(
      "invalid_request",
      "handler must be the default export of a bot/reminders/<name>.ts file; pass run for an inline handler.",
    );
  }
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value) && isJson(value);
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every(isJson);
  }
  return false;
}
