import { writeFileSync } from "node:fs";
import path from "node:path";
import type { LoadedEvalCase, LoadedEvals } from "../../server/load/types.ts";
import type { Diagnostic } from "../../server/discover/diagnostics.ts";
import type { EvalTarget } from "../../server/evals/target.ts";
import type { AssertionResult, CaseResult, EvalRunReport } from "../../server/evals/types.ts";
import type { AsyncStore } from "../../server/store/async-store.ts";
import { booleanFlag, type Command, type CommandIO, type ParsedArgs, stringFlag, UsageError } from "../command.ts";
import { SLUG_FLAG, selectedAgent } from "../agent-selection.ts";
import { RemoteAgent } from "../remote.ts";
import { formatDiagnostic } from "./validate.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Where the cases come from and where their messages go. */
interface EvalSession {
  agent: string;
  evals: LoadedEvals | undefined;
  target: EvalTarget;
  store: AsyncStore;
  stateRoot: string;
  close(): Promise<void>;
}

/** Setup failed before any case ran: print why and exit 2. */
class ConfigFailure extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join("\n"));
  }
}

const LOCAL_PRINCIPAL = { type: "user" as const, id: "local" };

function errorLines(diagnostics: Diagnostic[], io: CommandIO): string[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === "error").map((diagnostic) => formatDiagnostic(diagnostic, io));
}

async function openLocal(args: ParsedArgs, io: CommandIO): Promise<EvalSession> {
  const { AgentLoadError } = await import("../../server/host/open-agent.ts");
  const { openSelectedAgent } = await import("../../server/host/open-selected.ts");
  const { agentErrors } = await import("../../server/discover/diagnostics.ts");
  const { localTarget } = await import("../../server/evals/target.ts");
  const { resolveModelChain } = await import("../../server/models/index.ts");
  const model = stringFlag(args, "model");
  const stateRoot = stringFlag(args, "state-root");
  let opened;
  try {
    opened = await openSelectedAgent(await selectedAgent(args, io), { stateRoot: stateRoot && path.resolve(io.cwd, stateRoot), env: io.env, model });
  } catch (error) {
    if (error instanceof AgentLoadError) throw new ConfigFailure([error.message.split("\n")[0], ...errorLines(agentErrors(error.diagnostics), io)]);
    throw error;
  }
  try {
    // Without a usable model every case would fail the same way: say it once, as a setup error.
    resolveModelChain(opened.agent.config.model, opened.agent.config.modelFallbacks, { env: io.env, agentName: opened.agent.name, override: model });
  } catch (error) {
    await opened.close();
    throw new ConfigFailure([(error as Error).message]);
  }
  return {
    agent: opened.agent.name,
    evals: opened.agent.evals,
    target: localTarget(opened, LOCAL_PRINCIPAL),
    store: opened.runtime.store,
    stateRoot: opened.stateRoot,
    close: () => opened.close(),
  };
}

/** `--url`: the cases are loaded from `--dir`, their messages go to the server; the run is recorded locally. */
async function openRemote(url: string, args: ParsedArgs, io: CommandIO): Promise<EvalSession> {
  if (stringFlag(args, "model")) throw new UsageError("--model applies to in-process runs; the server chose its model");
  const { loadAgent } = await import("../../server/load/load-agent.ts");
  const { openStore } = await import("../../server/store/index.ts");
  const { asyncStore } = await import("../../server/store/async-store.ts");
  const { defaultStateRoot } = await import("../../server/host/open-agent.ts");
  const { discoverHost } = await import("../../server/discover/host.ts");
  // --slug names the agent on the server; its cases come from --dir: that agent's folder, or the folder of agents.
  const given = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
  const dir = discoverHost(given).kind === "multi" ? (await selectedAgent(args, io)).dir : given;
  const loaded = await loadAgent(dir);
  const errors = errorLines(loaded.diagnostics, io);
  if (!loaded.agent || errors.length > 0) throw new ConfigFailure(errors.length > 0 ? errors : [`no project in ${dir}`]);
  const stateRoot = path.resolve(io.cwd, stringFlag(args, "state-root") ?? defaultStateRoot(dir));
  const store = asyncStore(openStore(stateRoot));
  const remote = new RemoteAgent(url, stringFlag(args, "slug"), stringFlag(args, "token") ?? io.env.BDK_BEARER_TOKEN);
  return {
    agent: loaded.agent.name,
    evals: loaded.agent.evals,
    target: {
      send: (input) => remote.request<{ sessionId: string; turnId: string }>("POST", "/evals/sessions", input),
      follow: (sessionId, fromIndex, onEvent) => remote.follow(sessionId, fromIndex, onEvent),
      async resolveApproval(sessionId, approvalId, decision) {
        await remote.request("POST", `/session/${sessionId}/approvals/${approvalId}`, decision);
      },
      async stop(sessionId) {
        await remote.request("POST", `/session/${sessionId}/stop`);
      },
    },
    store,
    stateRoot,
    close: async () => store.close(),
  };
}

function positiveInteger(args: ParsedArgs, name: string): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

function listFlag(args: ParsedArgs, name: string): string[] {
  const value = args.flags[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export const evalCommand: Command = {
  name: "eval",
  summary: "Run evals: fixed inputs against the real agent, with assertions on the trajectory",
  usage: "bdk eval [ids...] [--dir D [--slug S] | --url U] [--list] [--tag T] [--json] [--junit FILE] [--strict]",
  flags: [
    { name: "dir", type: "string", description: "project directory (its evals/ folder), or a folder of projects with --slug", default: "." },
    { name: "url", type: "string", description: "send the messages to a running server instead of loading the agent" },
    SLUG_FLAG,
    { name: "token", type: "string", description: "with --url: bearer token (default BDK_BEARER_TOKEN)" },
    { name: "list", type: "boolean", description: "list the selected cases without running them" },
    { name: "tag", type: "strings", description: "only cases with this tag (repeatable)" },
    { name: "json", type: "boolean", description: "print the run report as JSON (see docs/evals.md)" },
    { name: "junit", type: "string", description: "also write a JUnit XML report to this file" },
    { name: "stream", type: "boolean", description: "report cases as they finish (--no-stream: only the final report)", default: true },
    { name: "max-concurrency", type: "string", description: "cases running at once (default: evals.config.ts)" },
    { name: "strict", type: "boolean", description: "soft assertions fail the run too" },
    { name: "model", type: "string", description: "model id for the agent, overrides BDK_MODEL and agent.ts" },
    { name: "dry-run", type: "boolean", description: "write tools return their dryRunResult (--no-dry-run: they act)", default: true },
    { name: "state-root", type: "string", description: "state directory (runs are recorded there)", default: "<dir>/.bdk/state" },
  ],
  async run(args, io) {
    const url = stringFlag(args, "url");
    const maxConcurrency = positiveInteger(args, "max-concurrency");
    const filter = { ids: args.positionals, tags: listFlag(args, "tag"), maxConcurrency };
    const junitFile = stringFlag(args, "junit");
    const json = booleanFlag(args, "json");

    let session: EvalSession;
    try {
      session = url ? await openRemote(url, args, io) : await openLocal(args, io);
    } catch (error) {
      if (!(error instanceof ConfigFailure)) throw error;
      io.stderr.write(`bdk eval: cannot run the evals:\n${error.lines.join("\n")}\n`);
      return 2;
    }

    try {
      return booleanFlag(args, "list") ? await listCases(session, filter, json, io) : await runCases(session, { args, filter, url, json, junitFile }, io);
    } catch (error) {
      const { EvalConfigError } = await import("../../server/evals/runner.ts");
      if (!(error instanceof EvalConfigError)) throw error;
      io.stderr.write(`bdk eval: ${error.message}\n`);
      return 2;
    } finally {
      await session.close();
    }
  },
};

interface RunRequest {
  args: ParsedArgs;
  filter: { ids: string[]; tags: string[]; maxConcurrency?: number };
  url?: string;
  json: boolean;
  junitFile?: string;
}

/** Runs the selected cases and prints the report; setup problems throw `EvalConfigError`. */
async function runCases(session: EvalSession, { args, filter, url, json, junitFile }: RunRequest, io: CommandIO): Promise<number> {
  const { describeDefaults } = await import("../../server/evals/runner.ts");
  const { startRun } = await import("../../server/evals/start-run.ts");
  const progress = json ? undefined : createProgress(io, args.flags.stream !== false);
  const started = await startRun({
    agent: session.agent,
    evals: session.evals,
    filter,
    target: session.target,
    store: session.store,
    env: io.env,
    options: {
      strict: booleanFlag(args, "strict"),
      dryRun: args.flags["dry-run"] !== false,
      target: url ? "url" : "local",
      ...(stringFlag(args, "model") ? { model: stringFlag(args, "model") } : {}),
    },
    onCaseStarted: (evalCase) => progress?.started(evalCase),
    onCaseFinished: (result) => progress?.finished(result),
  });
  if (!session.evals?.configFile) {
    io.stderr.write(`bdk eval: no evals/evals.config.ts, so the defaults apply: ${describeDefaults(started.plan.settings)}\n`);
  }
  progress?.begin(started.plan.cases.length);
  let report: EvalRunReport;
  try {
    report = await started.done;
  } finally {
    progress?.end();
  }

  if (junitFile) {
    const { toJUnitXml } = await import("../../server/evals/junit.ts");
    writeFileSync(path.resolve(io.cwd, junitFile), toJUnitXml(report));
  }
  if (json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(renderReport(report, session.stateRoot, io));
  return report.passed ? 0 : 1;
}

async function listCases(session: EvalSession, filter: { ids: string[]; tags: string[] }, json: boolean, io: CommandIO): Promise<number> {
  const { selectCases } = await import("../../server/evals/select.ts");
  const { assertEvalsLoaded, EvalConfigError } = await import("../../server/evals/runner.ts");
  assertEvalsLoaded(session.evals);
  const { cases, unknownIds } = selectCases(session.evals?.cases ?? [], filter);
  if (unknownIds.length > 0) throw new EvalConfigError(`no eval matches ${unknownIds.map((id) => JSON.stringify(id)).join(", ")}`);
  if (json) {
    const listed = cases.map(({ id, file, description, tags, iterations, timeoutMs }) => ({ id, file, description, tags, iterations, timeoutMs }));
    io.stdout.write(`${JSON.stringify({ cases: listed }, null, 2)}\n`);
    return 0;
  }
  const rows = cases.map((evalCase: LoadedEvalCase) => [evalCase.id, evalCase.tags.map((tag) => `#${tag}`).join(" "), evalCase.description ?? ""]);
  for (const line of table(rows)) io.stdout.write(`${line}\n`);
  io.stdout.write(`${cases.length} case${cases.length === 1 ? "" : "s"}\n`);
  return 0;
}

// ---- terminal output -------------------------------------------------------

type Paint = (code: number, text: string) => string;

function painter(io: CommandIO): Paint {
  const on = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  return (code, text) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);
}

const MARK: Record<CaseResult["verdict"], [string, number]> = {
  passed: ["✓", 32],
  failed: ["✗", 31],
  errored: ["!", 31],
  skipped: ["-", 33],
};

function verdictLabel(verdict: CaseResult["verdict"], paint: Paint): string {
  const [mark, color] = MARK[verdict];
  return paint(color, `${mark} ${verdict}`);
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function passRate(result: CaseResult): string {
  const passed = result.iterations.filter((iteration) => iteration.verdict === "passed").length;
  return `${passed}/${result.iterations.length}`;
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((max, row) => row.map((cell, i) => Math.max(max[i] ?? 0, visibleLength(cell))), []);
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat(widths[i] - visibleLength(cell)))).join("  ").trimEnd());
}

const visibleLength = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "").length;

/** Live on a TTY (spinner + cases as they finish), plain lines otherwise; silent with --no-stream. */
function createProgress(io: CommandIO, stream: boolean) {
  const paint = painter(io);
  const live = stream && Boolean(io.stdout.isTTY);
  const running = new Set<string>();
  let total = 0;
  let done = 0;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const status = () => {
    const names = [...running].slice(0, 3).join(", ") + (running.size > 3 ? `, +${running.size - 3}` : "");
    return `${paint(36, SPINNER[frame % SPINNER.length])} ${done}/${total} done${names ? paint(2, ` · running ${names}`) : ""}`;
  };
  const redraw = () => io.stdout.write(`\r\x1b[K${status()}`);
  return {
    begin(count: number) {
      total = count;
      if (!stream) return;
      io.stdout.write(`Running ${count} eval case${count === 1 ? "" : "s"}\n`);
      if (live) {
        redraw();
        timer = setInterval(() => {
          frame++;
          redraw();
        }, 80);
        timer.unref();
      }
    },
    started(evalCase: LoadedEvalCase) {
      running.add(evalCase.id);
    },
    finished(result: CaseResult) {
      running.delete(result.id);
      done++;
      if (!stream) return;
      const rate = result.iterations.length > 1 ? ` ${passRate(result)} passed` : "";
      const line = `${verdictLabel(result.verdict, paint)}  ${result.id}${rate} ${paint(2, `(${duration(result.durationMs)})`)}`;
      io.stdout.write(live ? `\r\x1b[K${line}\n${status()}` : `${line}\n`);
    },
    end() {
      if (timer) clearInterval(timer);
      if (live) io.stdout.write("\r\x1b[K");
    },
  };
}

function assertionLine(result: AssertionResult, paint: Paint): string {
  const mark = result.skipped ? paint(33, "-") : result.passed ? paint(32, "✓") : result.severity === "warning" ? paint(33, "!") : paint(31, "✗");
  return `${mark} ${result.severity === "warning" ? "(soft) " : ""}${result.name}: ${result.message}`;
}

/** The blocks worth reading: failed or errored cases, and passed ones with failed soft assertions. */
function detail(result: CaseResult, paint: Paint): string[] {
  const noteworthy = result.assertions.filter((assertion) => !assertion.passed);
  if (result.verdict === "passed" && noteworthy.length === 0) return [];
  if (result.verdict === "skipped" && noteworthy.every((assertion) => assertion.skipped) && result.iterations.length === 1) {
    return [`${verdictLabel(result.verdict, paint)}  ${result.id}`, ...noteworthy.map((assertion) => `    ${assertionLine(assertion, paint)}`)];
  }
  const deciding = result.iterations.find((iteration) => iteration.verdict === result.verdict);
  const which = result.iterations.length > 1 && deciding ? ` (iteration ${deciding.iteration + 1} of ${result.iterations.length}, ${passRate(result)} passed)` : "";
  return [
    `${verdictLabel(result.verdict, paint)}  ${result.id}${which}${result.sessionId ? paint(2, `  session ${result.sessionId}`) : ""}`,
    ...(result.error !== undefined ? [`    ${paint(31, "error:")} ${result.error}`] : []),
    ...noteworthy.map((assertion) => `    ${assertionLine(assertion, paint)}`),
  ];
}

function renderReport(report: EvalRunReport, stateRoot: string, io: CommandIO): string {
  const paint = painter(io);
  const rows = [
    ["case", "verdict", "pass rate", "time", "session"].map((heading) => paint(1, heading)),
    ...report.cases.map((result) => [result.id, verdictLabel(result.verdict, paint), passRate(result), duration(result.durationMs), result.sessionId ?? ""]),
  ];
  const details = report.cases.flatMap((result) => {
    const lines = detail(result, paint);
    return lines.length > 0 ? [...lines, ""] : [];
  });
  const { counts } = report;
  const totals = [
    paint(counts.passed > 0 ? 32 : 2, `${counts.passed} passed`),
    paint(counts.failed > 0 ? 31 : 2, `${counts.failed} failed`),
    paint(counts.errored > 0 ? 31 : 2, `${counts.errored} errored`),
    paint(counts.skipped > 0 ? 33 : 2, `${counts.skipped} skipped`),
  ].join(", ");
  return [
    "",
    ...table(rows),
    "",
    ...details,
    `${totals} · ${counts.total} case${counts.total === 1 ? "" : "s"} in ${duration(report.durationMs ?? 0)}`,
    paint(2, `run ${report.runId} recorded in ${stateRoot}`),
    "",
  ].join("\n");
}
