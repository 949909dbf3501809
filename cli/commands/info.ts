import path from "node:path";
import { agentTargets, SLUG_FLAG } from "../agent-selection.ts";
import { booleanFlag, stringFlag, type Command, type CommandIO } from "../command.ts";
import type { ModelInfo, ProjectInfo } from "../../server/discover/info.ts";
import { countLine, formatDiagnostic } from "./validate.ts";

function model(info: ModelInfo): string {
  const params = info.params.map((param) => `${param.id}=${param.value}`).join(" ");
  return [info.id, params, info.isDefault ? "(default)" : ""].filter(Boolean).join(" ");
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((max, row) => row.map((cell, i) => Math.max(max[i] ?? 0, cell.length)), []);
  return rows.map((row) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ")}`.trimEnd());
}

function firstLine(text: string | undefined): string {
  const line = (text ?? "").split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function section(title: string, rows: string[][]): string[] {
  return rows.length === 0 ? [`${title}: none`] : [`${title} (${rows.length})`, ...table(rows)];
}

/** The human-readable surface; `--json` prints the object itself. */
export function renderInfo(info: ProjectInfo, io: CommandIO): string {
  const lines = [
    `${info.name}  (version ${info.version})`,
    `model: ${model(info.model)}${info.modelFallbacks.length ? `; fallbacks: ${info.modelFallbacks.map(model).join(", ")}` : ""}`,
    `instructions: ${info.instructions.source} (${info.instructions.length} characters)${info.instructions.firstLine ? `: ${firstLine(info.instructions.firstLine)}` : ""}`,
    ...section(
      "tools",
      info.tools.map((tool) => [
        tool.name,
        [tool.effectDefault ? `${tool.effect} (default)` : tool.effect, tool.execution === "agent" ? "agent" : "", tool.needsApproval ? `approval${tool.needsApproval === "dynamic" ? "?" : ""}` : "", tool.source === "authored" ? "" : tool.source]
          .filter(Boolean)
          .join(", "),
        firstLine(tool.description),
      ]),
    ),
    ...section("skills", info.skills.map((skill) => [skill.name, firstLine(skill.description)])),
    ...section(
      "subagents",
      info.subagents.map((subagent) => [subagent.name === subagent.id ? subagent.id : `${subagent.id} (${subagent.name})`, subagent.model ? model(subagent.model) : "", firstLine(subagent.description)]),
    ),
    ...section(
      "connections",
      // status and error are known only from a running server (`bdk info --url`).
      info.connections.map((connection) => [
        connection.name,
        // kind (remote, stdio, peer) and transport say the same for stdio: print each word once.
        [...new Set([connection.scope, connection.kind, connection.transport, connection.status].filter(Boolean))].join(", "),
        connection.error ? `${connection.target}  error: ${firstLine(connection.error)}` : connection.target,
      ]),
    ),
    ...section(
      "extensions",
      info.extensions.map((extension) => [
        extension.namespace,
        extension.extension,
        Object.entries(extension.contributes)
          .filter(([, value]) => (Array.isArray(value) ? value.length > 0 : value))
          .map(([kind, value]) => (Array.isArray(value) ? `${kind}: ${value.join(", ")}` : kind))
          .join("; "),
      ]),
    ),
    ...section(
      "channels",
      info.channels.flatMap((channel) =>
        channel.routes.length === 0 ? [[channel.id, "(no routes)", ""]] : channel.routes.map((route) => [channel.id, `${route.method} ${route.path}`, firstLine(route.description)]),
      ),
    ),
    ...section("schedules", info.schedules.map((schedule) => [schedule.name, schedule.cron, schedule.kind, schedule.nextFireAt ? `next ${schedule.nextFireAt}` : ""])),
    ...section("reminders", info.reminders.map((reminder) => [reminder.name, firstLine(reminder.description)])),
    ...section("hooks", info.hooks.map((hook) => [hook.name, hook.memory ? `memory (${hook.memory.scope})` : hook.events.join(", ")])),
    ...section("artifact kinds", (info.artifacts?.kinds ?? []).map((kind) => [kind.kind, firstLine(kind.description)])),
    ...(info.result ? ["result: bot/result.ts commits each final answer"] : []),
    ...section("evals", info.evals.map((evalCase) => [evalCase.id, evalCase.tags.join(", ")])),
    info.diagnostics.length ? `diagnostics (${countLine(info.diagnostics)})` : "diagnostics: none",
    ...info.diagnostics.map((diagnostic) => `  ${formatDiagnostic(diagnostic, io)}`),
  ];
  return `${lines.join("\n")}\n`;
}

export const infoCommand: Command = {
  name: "info",
  summary: "Show what a project defines: model, tools, skills, channels, schedules, ...",
  usage: "bdk info [--dir D [--slug S]] [--json]",
  flags: [
    { name: "dir", type: "string", description: "project directory (or a folder of projects)", default: "." },
    { ...SLUG_FLAG, description: "in a folder of projects: only this agent (--json prints its GET /<slug>/v1/info)" },
    { name: "json", type: "boolean", description: "print the same JSON as GET /v1/info" },
  ],
  async run(args, io) {
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const json = booleanFlag(args, "json");
    const { agentErrors } = await import("../../server/discover/diagnostics.ts");
    const { loadAgent } = await import("../../server/load/load-agent.ts");
    const { projectInfo } = await import("../../server/discover/info.ts");
    const { effectiveModel } = await import("../../server/models/effective.ts");

    const slug = stringFlag(args, "slug");
    const layout = await agentTargets(dir, slug);
    // A folder of agents lists each with its slug; one agent (a project, or --slug) prints its info alone.
    const listed = slug === undefined && layout.agents.some((target) => target.slug !== undefined);
    const infos: (ProjectInfo & { slug?: string })[] = [];
    let failed = agentErrors(layout.diagnostics).length > 0;
    for (const target of layout.agents) {
      const loaded = await loadAgent(target.dir);
      if (!loaded.agent) {
        failed = true;
        if (json) io.stdout.write(`${JSON.stringify({ ok: false, diagnostics: loaded.diagnostics }, null, 2)}\n`);
        else for (const diagnostic of loaded.diagnostics) io.stderr.write(`${formatDiagnostic(diagnostic, io)}\n`);
        continue;
      }
      failed ||= agentErrors(loaded.diagnostics).length > 0;
      infos.push({ ...(listed ? { slug: target.slug } : {}), ...projectInfo(loaded.agent, loaded.diagnostics, new Date(), effectiveModel(loaded.agent.config, { env: io.env })) });
    }
    if (json) {
      if (layout.agents.length === 0) io.stdout.write(`${JSON.stringify({ ok: false, diagnostics: layout.diagnostics }, null, 2)}\n`);
      else if (listed) io.stdout.write(`${JSON.stringify({ agents: infos, diagnostics: layout.diagnostics }, null, 2)}\n`);
      else if (infos[0]) io.stdout.write(`${JSON.stringify(infos[0], null, 2)}\n`);
    } else {
      for (const diagnostic of layout.diagnostics) io.stdout.write(`${formatDiagnostic(diagnostic, io)}\n`);
      io.stdout.write(infos.map((info) => (info.slug ? `[${info.slug}] ` : "") + renderInfo(info, io)).join("\n"));
    }
    return failed ? 1 : 0;
  },
};
