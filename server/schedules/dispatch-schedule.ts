/**
 * One firing of a schedule, the same whether cron, the dev route or
 * `handle.dispatchSchedule` asked: a markdown schedule starts a task session
 * with its body as the prompt; a handler schedule runs its `run` with
 * `receive`, `callTool`, `waitUntil` and its own principal.
 */
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { ScheduleRunContext } from "../authoring/schedules.ts";
import type { ChannelHub } from "../channels/channel-hub.ts";
import { createArtifactsApi } from "../host/artifacts-api.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { SessionRuntime } from "../sessions/session-runtime.ts";

export interface ScheduleDispatch {
  scheduleId: string;
  sessionIds: string[];
}

export interface DispatchScheduleDeps {
  runtime: SessionRuntime;
  channels: ChannelHub;
}

export function scheduleAuth(name: string): Principal {
  return { type: "app", id: `schedule/${name}` };
}

export async function dispatchSchedule(deps: DispatchScheduleDeps, name: string): Promise<ScheduleDispatch> {
  const { runtime, channels } = deps;
  const schedule = runtime.agent.schedules.get(name);
  if (!schedule) {
    const known = [...runtime.agent.schedules.keys()].join(", ") || "none";
    throw new BdkError("not_found", `No schedule "${name}" (schedules: ${known}).`);
  }
  const appAuth = scheduleAuth(name);

  if (typeof schedule.run !== "function") {
    if (!schedule.markdown?.trim()) throw new BdkError("invalid_request", `Schedule ${name} has an empty prompt.`);
    const turn = await runtime.startSession({
      message: schedule.markdown,
      principal: appAuth,
      mode: "task",
      channel: "schedule",
      title: name,
      purpose: `schedule:${name}`,
    });
    return { scheduleId: name, sessionIds: [turn.sessionId] };
  }

  const sessionIds: string[] = [];
  /** Messages `run` handed over, awaited or not (the docs hand `receive` to `waitUntil`). */
  const received: Promise<unknown>[] = [];
  const ctx: ScheduleRunContext = {
    receive(channel, input) {
      const handle = channels.receive(channel as ChannelDefinition, input, appAuth).then((stored) => {
        sessionIds.push(stored.id);
        return stored;
      });
      received.push(handle);
      return handle;
    },
    async callTool(toolName, input) {
      const outcome = await runtime.tools.callTool(toolName, input, { principal: appAuth });
      return { isError: outcome.isError, result: outcome.output };
    },
    waitUntil: (promise) => channels.waitUntil(promise),
    appAuth,
    host: runtime.hostServices,
    artifacts: createArtifactsApi({ store: runtime.store, registry: runtime.agent.artifacts }),
  };
  await schedule.run(ctx);
  // Each `receive` resolves once its message is stored: every session of this firing is known once they have (a failed one is the caller's to see).
  await Promise.allSettled(received);
  return { scheduleId: name, sessionIds: [...new Set(sessionIds)] };
}
