import path from "node:path";
import { booleanFlag, stringFlag, type Command, type CommandIO } from "../command.ts";
import type { Diagnostic } from "../../server/discover/diagnostics.ts";

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

/** Every project under `dir` (one, or each agent of a multi-agent host) with its diagnostics. */
export async function validateDir(dir: string): Promise<{ name: string; slug?: string; diagnostics: Diagnostic[] }[]> {
  const { discoverHost } = await import("../../server/discover/host.ts");
  const { loadAgent } = await import("../../server/load/load-agent.ts");
  const layout = discoverHost(dir);
  if (layout.kind !== "multi") {
    const loaded = await loadAgent(dir);
    return [{ name: loaded.manifest?.name ?? path.basename(dir), diagnostics: [...layout.diagnostics, ...loaded.diagnostics] }];
  }
  const results: { name: string; slug?: string; diagnostics: Diagnostic[] }[] = [];
  if (layout.diagnostics.length > 0) results.push({ name: path.basename(dir), diagnostics: layout.diagnostics });
  for (const { slug, dir: agentDir } of layout.agents) {
    const loaded = await loadAgent(agentDir);
    const diagnostics = loaded.diagnostics.map((diagnostic) => ({ ...diagnostic, file: diagnostic.file && `${slug}/${diagnostic.file}` }));
    results.push({ name: loaded.manifest?.name ?? slug, slug, diagnostics });
  }
  return results;
}

export const validateCommand: Command = {
  name: "validate",
  summary: "Check a project's bot/ folder and evals; exit 1 on errors",
  usage: "bdk validate [--dir D] [--json]",
  flags: [
    { name: "dir", type: "string", description: "project directory (or a folder of projects)", default: "." },
    { name: "json", type: "boolean", description: "print { ok, diagnostics } as JSON" },
  ],
  async run(args, io) {
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const results = await validateDir(dir);
    const diagnostics = results.flatMap((result) => result.diagnostics);
    const ok = !diagnostics.some((diagnostic) => diagnostic.severity === "error");
    if (booleanFlag(args, "json")) {
      io.stdout.write(`${JSON.stringify({ ok, diagnostics }, null, 2)}\n`);
      return ok ? 0 : 1;
    }
    for (const diagnostic of diagnostics) io.stdout.write(`${formatDiagnostic(diagnostic, io)}\n`);
    for (const result of results) {
      const label = result.slug ? `${result.slug} (${result.name})` : result.name;
      const verdict = result.diagnostics.some((diagnostic) => diagnostic.severity === "error") ? color(io, 31, "invalid") : color(io, 32, "valid");
      io.stdout.write(`${label}: ${verdict} (${countLine(result.diagnostics)})\n`);
    }
    return ok ? 0 : 1;
  },
};
