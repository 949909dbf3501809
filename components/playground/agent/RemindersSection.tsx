"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../api/errors.ts";
import type { ReminderInfo } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { PlayIcon } from "../../ui/icons.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { formatDateTime, shortId } from "../../ui/format.ts";
import { cardClass } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";

const timingOf = (reminder: ReminderInfo) =>
  reminder.cron ? `cron ${reminder.cron}` : reminder.every ? `every ${reminder.every}` : reminder.delay ? `after ${reminder.delay}` : reminder.at ? `at ${formatDateTime(reminder.at)}` : "";

/** Armed reminders, listed by the dev route (under `bdk dev` nothing fires on its own, so each has "Fire now"). */
export function RemindersSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const queryKey = ["dev-reminders", api.base];
  const reminders = useQuery({ queryKey, queryFn: ({ signal }) => api.devReminders(signal), refetchInterval: 5000 });
  const list = reminders.data?.reminders ?? [];
  return (
    <Section title="Reminders" count={list.length}>
      {reminders.isError ? <ErrorNotice error={reminders.error} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No reminders armed" className="py-6" />
      ) : (
        <ul className={`${cardClass} divide-y divide-line`}>
          {list.map((reminder) => (
            <ReminderRow key={reminder.id} reminder={reminder} onFired={() => queryClient.invalidateQueries({ queryKey })} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ReminderRow({ reminder, onFired }: { reminder: ReminderInfo; onFired: () => void }) {
  const api = useApi();
  const nav = useNavigation();
  const fire = useMutation({ mutationFn: () => api.fireReminder(reminder.id), onSettled: onFired });
  return (
    <li className="space-y-1.5 px-4 py-3" data-testid="reminder">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span className="font-mono text-sm font-medium">{reminder.purpose ?? reminder.handler ?? shortId(reminder.id)}</span>
        <span className="text-xs text-fg-muted">{timingOf(reminder)}</span>
        {reminder.sessionId ? (
          <Button size="sm" variant="ghost" onClick={() => nav.openSession(reminder.sessionId!)}>
            Session {shortId(reminder.sessionId)}
          </Button>
        ) : null}
        <Button size="sm" variant="secondary" className="ml-auto" disabled={fire.isPending} onClick={() => fire.mutate()}>
          {fire.isPending ? <Spinner className="size-3" /> : <PlayIcon className="size-3" />} Fire now
        </Button>
      </div>
      {reminder.prompt ? <p className="text-xs text-fg-muted">{reminder.prompt}</p> : null}
      {fire.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {errorMessage(fire.error)}
        </p>
      ) : null}
    </li>
  );
}
