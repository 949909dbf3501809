/**
 * Runs an `execution: "agent"` tool's script in the session workspace with a
 * bare environment (no server secrets), like the model would from the shell.
 */
import { existsSync } from "node:fs";
import { KIT_DIR } from "../../kit-dir.ts";
import { resolveInside } from "../workspace.ts";
import { agentToolScriptPath } from "./agent-tool-script.ts";
import { childEnv, runProcess } from "./run-process.ts";
import { confinedArgv } from "./sandbox.ts";

const MAX_RESULT_BYTES = 8 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2000;

export interface AgentToolRun {
  workspaceDir: string;
  name: string;
  input: unknown;
  timeoutMs: number;
  signal: AbortSignal;
  sandbox?: boolean;
  /** The project's folder: the script imports the tool's source from it, so the sandbox keeps it readable. */
  projectDir?: string;
  /** Seen by the tool as `ctx.session.id`. */
  sessionId?: string;
}

export interface AgentToolOutcome {
  output: unknown;
  isError: boolean;
}

/** The script's last stdout line: `{ ok: true, result }` or `{ ok: false, error }`. */
function parseResultLine(stdout: string): AgentToolOutcome | undefined {
  const line = stdout.trimEnd().split("\n").at(-1);
  if (!line) return undefined;
  try {
    const payload = JSON.parse(line) as { ok?: unknown; result?: unknown; error?: unknown };
    if (payload.ok === true) return { output: payload.result ?? null, isError: false };
    if (payload.ok === false) return { output: String(payload.error), isError: true };
  } catch {
    // Not a result line; reported below with stderr.
  }
  return undefined;
}

export async function runAgentTool(options: AgentToolRun): Promise<AgentToolOutcome> {
  const { name } = options;
  const cwd = resolveInside(options.workspaceDir, ".");
  const script = resolveInside(cwd, agentToolScriptPath(name));
  if (!existsSync(script)) {
    return { output: `agent tool "${name}" has no script in the workspace (${agentToolScriptPath(name)}); the workspace was not prepared`, isError: true };
  }
  // Input goes through stdin: a command-line argument is limited to 128 KiB.
  const argv = [process.execPath, script];
  const run = await runProcess({
    argv: confinedArgv({ sandbox: options.sandbox, cwd, readOnly: [KIT_DIR, ...(options.projectDir ? [options.projectDir] : [])] }, argv),
    cwd,
    env: childEnv(options.sessionId),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    stdin: JSON.stringify(options.input ?? {}),
    maxOutputBytes: MAX_RESULT_BYTES,
  });
  if (run.timedOut) return { output: `agent tool "${name}" ran longer than ${options.timeoutMs} ms and was killed`, isError: true };
  if (run.aborted) return { output: `agent tool "${name}" was stopped because the turn was cancelled`, isError: true };
  if (run.stdout.truncated) return { output: `agent tool "${name}" printed more than ${MAX_RESULT_BYTES} bytes`, isError: true };

  const parsed = parseResultLine(run.stdout.text);
  if (parsed) return parsed;
  const stderr = run.stderr.text.trim().slice(-STDERR_TAIL_CHARS);
  const status = run.exitCode === null ? `was killed by ${run.signal}` : `exited with code ${run.exitCode}`;
  return { output: `agent tool "${name}" ${status} without a result${stderr ? `: ${stderr}` : ""}`, isError: true };
}
