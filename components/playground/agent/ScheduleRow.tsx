"use client";
import { useMutation } from "@tanstack/react-query";
import { errorMessage, isApiError } from "../../api/errors.ts";
import type { ScheduleInfo } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { PlayIcon } from "../../ui/icons.tsx";
import { formatDateTime, relativeTime, shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { useDevMode } from "../hooks.ts";
import { useNavigation } from "../navigation.tsx";

/** When a schedule fires, from the server's mode: under dev nothing fires on its own, so no next firing is claimed. */
function firingText(schedule: ScheduleInfo, dev: boolean | undefined): string {
  if (dev) return "fires only by hand in dev";
  if (dev === undefined) return "";
  return schedule.nextFireAt ? `next ${relativeTime(schedule.nextFireAt)} · ${formatDateTime(schedule.nextFireAt)}` : "not armed";
}

/** A schedule, when it fires next, and a dev-only "Fire now". */
export function ScheduleRow({ schedule }: { schedule: ScheduleInfo }) {
  const api = useApi();
  const dev = useDevMode();
  const nav = useNavigation();
  const fire = useMutation({ mutationFn: () => api.fireSchedule(schedule.name) });
  return (
    <li className="space-y-2 px-4 py-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span className="font-mono text-sm font-medium">{schedule.name}</span>
        {schedule.cron ? <code className="rounded bg-surface-hover px-1.5 py-0.5 font-mono text-xs">{schedule.cron}</code> : null}
        <span className="text-xs text-fg-muted" data-testid="schedule-firing" title={dev ? undefined : formatDateTime(schedule.nextFireAt)}>
          {firingText(schedule, dev)}
        </span>
        <Button size="sm" variant="secondary" className="ml-auto" disabled={fire.isPending} onClick={() => fire.mutate()}>
          {fire.isPending ? <Spinner className="size-3" /> : <PlayIcon className="size-3" />} Fire now
        </Button>
      </div>
      {schedule.description ? <p className="text-xs text-fg-muted">{schedule.description}</p> : null}
      {fire.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {isApiError(fire.error, 404) ? "Firing by hand needs dev mode: start the server with bdk dev (or serve --dev)." : errorMessage(fire.error)}
        </p>
      ) : null}
      {fire.data ? (
        <p className="flex flex-wrap items-center gap-2 text-xs text-tone-success">
          Fired.
          {(fire.data.sessionIds ?? []).map((id) => (
            <Button key={id} size="sm" variant="ghost" onClick={() => nav.openSession(id)}>
              Open {shortId(id)}
            </Button>
          ))}
        </p>
      ) : null}
    </li>
  );
}
