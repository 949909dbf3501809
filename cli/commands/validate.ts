import path from "node:path";
import { agentTargets, SLUG_FLAG } from "../agent-selection.ts";
import { booleanFlag, stringFlag, type Command, type CommandIO } from "../command.ts";
import { agentErrors, hasErrors, type Diagnostic } from "../../server/discover/diagnostics.ts";

const color = (io: CommandIO, code: number, text: string) => (io.stdout.isTTY && !io.env.NO_COLOR ? `\x1b[${code}m${text}\x1b[0m` : text);

/** `error  bot/tools/x.ts:4  message` and an indented hint. */
export function formatDiagnostic(diagnostic: Diagnostic, io: CommandIO): string {
  const severity = diagnostic.severity === "error" ? color(io, 31, "error  ") : color(io, 33, "warning");
  const where = diagnostic.file ? `${diagnostic.file}${diagnostic.line ? `:${diagnostic.line}` : ""}  ` : "";
  const hint = diagnostic.hint ? `\n${diagnostic.hint.split("\n").map((line) => `         ${color(io, 2, line)}`).join("\n")}` : "";
  return `${severity}  ${where}${diagnostic.message}${hint}`;
}

export function countLine(diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const warnings = diagnostics.length - errors;
  return `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
}

/** Every project under `dir` (one, each agent of a folder of agents, or the one `slug` names) with its diagnostics. */
export async function validateDir(dir: string, slug?: string): Promise<{ name: string; slug?: string; diagnostics: Diagnostic[] }[]> {
  const { loadAgent } = await import("../../server/load/load-agent.ts");
  const targets = await agentTargets(dir, slug);
  const results: { name: string; slug?: string; diagnostics: Diagnostic[] }[] = [];
  if (targets.diagnostics.length > 0) results.push({ name: path.basename(dir), diagnostics: targets.diagnostics });
  for (const target of targets.agents) {
    const loaded = await loadAgent(target.dir);
    const diagnostics = target.slug
      ? loaded.diagnostics.map((diagnostic) => ({ ...diagnostic, file: diagnostic.file && `${target.slug}/${diagnostic.file}` }))
      : loaded.diagnostics;
    results.push({ name: loaded.manifest?.name ?? target.slug ?? path.basename(target.dir), slug: target.slug, diagnostics });
  }
  return results;
}

/** `valid`, `invalid`, or, when only `evals/` has errors, a verdict saying the agent still runs. */
function verdict(diagnostics: Diagnostic[], io: CommandIO): string {
  if (agentErrors(diagnostics).length > 0) return color(io, 31, "invalid");
  if (hasErrors(diagnostics)) return `${color(io, 31, "evals invalid")}, the agent itself can run`;
  return color(io, 32, "valid");
}

export const validateCommand: Command = {
  name: "validate",
  summary: "Check a project's bot/ folder and evals; exit 1 on errors",
  usage: "bdk validate [--dir D [--slug S]] [--json]",
  flags: [
    { name: "dir", type: "string", description: "project directory (or a folder of projects)", default: "." },
    { ...SLUG_FLAG, description: "in a folder of projects: only this agent" },
    { name: "json", type: "boolean", description: "print { ok, diagnostics } as JSON" },
  ],
  async run(args, io) {
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const results = await validateDir(dir, stringFlag(args, "slug"));
    const diagnostics = results.flatMap((result) => result.diagnostics);
    const ok = !hasErrors(diagnostics);
    if (booleanFlag(args, "json")) {
      io.stdout.write(`${JSON.stringify({ ok, diagnostics }, null, 2)}\n`);
      return ok ? 0 : 1;
    }
    for (const diagnostic of diagnostics) io.stdout.write(`${formatDiagnostic(diagnostic, io)}\n`);
    for (const result of results) {
      const label = result.slug ? `${result.slug} (${result.name})` : result.name;
      io.stdout.write(`${label}: ${verdict(result.diagnostics, io)} (${countLine(result.diagnostics)})\n`);
    }
    return ok ? 0 : 1;
  },
};
