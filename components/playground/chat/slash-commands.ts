/**
 * Composer slash commands: custom channel routes without path parameters
 * (`/drive <pr-url>`), plus the built-in `/help`. Slack and GitHub ingress
 * routes are left out: they expect their platform's signed payloads.
 */
import type { AgentInfo, ChannelRouteInfo } from "../../api/types.ts";
import { exampleFromSchema, firstRequiredStringField } from "../schema/json-schema.ts";

export interface SlashCommand {
  name: string;
  description: string;
  /** Absent for built-ins. */
  route?: { channelId: string; method: string; path: string; bodySchema?: Record<string, unknown>; field?: string };
}

/** A platform pack's route (Slack, GitHub) expects signed webhooks: never a command, whatever the channel file is called. */
const isPlatformIngress = (channel: { pack?: string }) => Boolean(channel.pack);
const PATH_PARAM = /[:[{*]/;

export const HELP_COMMAND: SlashCommand = { name: "help", description: "List the available commands" };

export function slashCommandsFromInfo(info: AgentInfo | undefined): SlashCommand[] {
  const candidates: Array<{ channelId: string; route: ChannelRouteInfo; routeName: string }> = [];
  for (const channel of info?.channels ?? []) {
    if (!channel?.id || isPlatformIngress(channel)) continue;
    for (const route of channel.routes ?? []) {
      const path = route.path ?? "/";
      if (PATH_PARAM.test(path)) continue;
      const segments = path.split("/").filter(Boolean);
      candidates.push({ channelId: channel.id, route, routeName: segments[segments.length - 1] ?? channel.id });
    }
  }
  const taken = new Map<string, number>();
  for (const candidate of candidates) taken.set(candidate.routeName, (taken.get(candidate.routeName) ?? 0) + 1);

  const commands = candidates.map(({ channelId, route, routeName }) => {
    const name = taken.get(routeName) === 1 && routeName !== HELP_COMMAND.name ? routeName : `${channelId}-${routeName}`;
    const field = firstRequiredStringField(route.bodySchema);
    return {
      name: slug(name),
      description: route.description || `${(route.method ?? "POST").toUpperCase()} ${channelId}${route.path ?? ""}`,
      route: { channelId, method: (route.method ?? "POST").toUpperCase(), path: route.path ?? "/", bodySchema: route.bodySchema, field },
    };
  });
  return [HELP_COMMAND, ...commands];
}

function slug(name: string): string {
  return name.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "route";
}

/** `/drive https://…` → `{ name: "drive", rest: "https://…" }`. */
export function parseSlash(input: string): { name: string; rest: string } | undefined {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  return match ? { name: match[1], rest: (match[2] ?? "").trim() } : undefined;
}

/**
 * A JSON argument is sent as-is; plain text fills the route's first required
 * string field (`{ message }` when the route reports no body schema).
 */
export function commandBody(command: SlashCommand, text: string): unknown {
  if (!command.route || command.route.method === "GET" || command.route.method === "HEAD") return undefined;
  if (text.startsWith("{")) return JSON.parse(text);
  if (!command.route.bodySchema) return text ? { message: text } : {};
  const example = exampleFromSchema(command.route.bodySchema);
  const body = example && typeof example === "object" && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
  return command.route.field ? { ...body, [command.route.field]: text } : body;
}

export function commandUsage(command: SlashCommand): string {
  if (!command.route) return `/${command.name}`;
  if (command.route.field) return `/${command.name} <${command.route.field}>`;
  return command.route.bodySchema ? `/${command.name}` : `/${command.name} <text or JSON>`;
}
