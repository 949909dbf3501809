import type { ScheduleDefinition } from "../../authoring/schedules.ts";
import { createLogger } from "../../host/logger.ts";
import { asyncStore } from "../../store/async-store.ts";
import type { Store } from "../../store/index.ts";
import type { Clock } from "../clock.ts";
import { ScheduleRunner } from "../schedule-runner.ts";

/** Test support: a runner of agent "ops" on `store`, logging to it, calling `fired(name)` per firing. */
export function opsRunner(
  store: Store,
  clock: Clock,
  holder: string,
  schedules: ReadonlyMap<string, ScheduleDefinition>,
  fired: (name: string) => void,
  leaseMs?: number,
): ScheduleRunner {
  return new ScheduleRunner({
    schedules: () => schedules,
    store: asyncStore(store),
    agentName: "ops",
    clock,
    logger: createLogger(asyncStore(store)),
    holder,
    leaseMs,
    fire: async (name) => fired(name),
  });
}
