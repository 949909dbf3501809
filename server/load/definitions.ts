/**
 * Shape checks for the definitions that are kept as they are (channels,
 * hooks, reminders, schedules, artifacts, result). Each throws
 * `DefinitionError` for an unusable definition and returns warnings otherwise.
 */
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { HookDefinition } from "../authoring/hooks.ts";
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { ResultDefinition } from "../authoring/result.ts";
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import { EVENT_TYPES } from "../protocol/events.ts";
import { cronProblem } from "../discover/cron.ts";
import { DefinitionError } from "./definition-error.ts";
import { isPlainObject, isZodLike } from "./input-schema.ts";

function invalid(message: string, hint?: string): never {
  throw new DefinitionError("invalid_definition", message, hint);
}

function eventHandlerWarnings(events: unknown, owner: string): string[] {
  if (events === undefined) return [];
  if (!isPlainObject(events)) invalid(`${owner} events must be an object of event-type → handler`);
  const warnings: string[] = [];
  for (const [type, handler] of Object.entries(events)) {
    if (typeof handler !== "function") invalid(`${owner} handler for "${type}" must be a function`);
    if (type !== "*" && !(EVENT_TYPES as readonly string[]).includes(type)) warnings.push(`${owner} subscribes to unknown event type "${type}"; it never fires`);
  }
  return warnings;
}

export function checkChannel(definition: ChannelDefinition): string[] {
  if (definition.pack) return [];
  if (!Array.isArray(definition.routes)) invalid("a channel needs routes: [POST(...), GET(...)]");
  const seen = new Set<string>();
  for (const route of definition.routes) {
    if (route?.method !== "GET" && route?.method !== "POST") invalid("routes must be built with GET(path, spec) or POST(path, spec)");
    if (typeof route.path !== "string" || !route.path.startsWith("/")) invalid(`route path ${JSON.stringify(route.path)} must start with "/"`);
    if (typeof route.handler !== "function") invalid(`${route.method} ${route.path} needs a handler function`);
    for (const [field, schema] of [["bodySchema", route.bodySchema], ["querySchema", route.querySchema]] as const) {
      if (schema !== undefined && !isZodLike(schema)) invalid(`${route.method} ${route.path}: ${field} must be a zod schema`);
    }
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) invalid(`route ${key} is defined twice`);
    seen.add(key);
  }
  if (definition.auth !== undefined && !(Array.isArray(definition.auth) && definition.auth.every((policy) => typeof policy?.kind === "string"))) {
    invalid("auth must be a list of policies: localDevStrict(), bearerAuth(token), anonymous()");
  }
  return eventHandlerWarnings(definition.events, "channel");
}

export function checkHook(definition: HookDefinition): string[] {
  if (definition.events === undefined) invalid("a hook needs events: { \"turn.completed\"(event, ctx) { ... } }");
  return eventHandlerWarnings(definition.events, "hook");
}

export function checkReminder(definition: ReminderDefinition): string[] {
  if (typeof definition.run !== "function") invalid("a reminder handler needs run({ args, followup })");
  return [];
}

export function checkSchedule(definition: ScheduleDefinition): string[] {
  const problem = cronProblem(definition.cron);
  if (problem) throw new DefinitionError("invalid_cron", problem, 'Five fields, UTC: e.g. "0 9 * * 1-5" (09:00 on weekdays).');
  const hasMarkdown = typeof definition.markdown === "string";
  const hasRun = typeof definition.run === "function";
  if (hasMarkdown === hasRun) {
    invalid(`a schedule needs exactly one of markdown or run (it has ${hasMarkdown ? "both" : "neither"})`);
  }
  if (hasMarkdown && !definition.markdown!.trim()) invalid("the schedule's markdown prompt is empty");
  return [];
}

export function checkArtifacts(definition: ArtifactsDefinition): string[] {
  if (!isPlainObject(definition.kinds)) invalid("defineArtifacts needs kinds: { <kind>: { description, schema? } }");
  for (const [kind, spec] of Object.entries(definition.kinds)) {
    if (typeof spec?.description !== "string") invalid(`artifact kind "${kind}" needs a description`);
    if (spec.schema !== undefined && !isZodLike(spec.schema)) invalid(`artifact kind "${kind}": schema must be a zod schema`);
  }
  if (definition.max !== undefined && !(Number.isInteger(definition.max) && definition.max > 0)) invalid("max must be a positive integer");
  return [];
}

export function checkResult(definition: ResultDefinition): string[] {
  if (typeof definition.commit !== "function") invalid("defineResult needs commit(text, ctx)");
  return [];
}
