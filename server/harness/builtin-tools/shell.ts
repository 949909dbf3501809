import { mkdir } from "node:fs/promises";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { childEnv, runProcess, withTruncationNote } from "./run-process.ts";
import { confinedArgv } from "./sandbox.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 10 * 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

const schema = z.object({
  command: z.string().min(1).describe("A bash command, run in the workspace"),
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe(`Time limit in ms (default ${DEFAULT_TIMEOUT_MS})`),
});

function errorResult(message: string, details: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text: `${message}\n${JSON.stringify(details)}` }], isError: true };
}

export function shellTool(options: { sandbox?: boolean } = {}): LoadedTool {
  return builtinTool(
    "shell",
    `Run a bash command in the workspace. Returns exitCode, stdout and stderr (each capped at ${MAX_OUTPUT_BYTES / 1024} KiB). ` +
      `The command and its child processes are killed after timeoutMs.`,
    schema,
    async ({ command, timeoutMs = DEFAULT_TIMEOUT_MS }, ctx) => {
      const cwd = resolveInside(ctx.workspaceDir, ".");
      await mkdir(cwd, { recursive: true });
      // No login or rc files: what runs is the command, not the host's profile.
      const argv = ["bash", "--noprofile", "--norc", "-c", command];
      const run = await runProcess({
        argv: confinedArgv({ sandbox: options.sandbox, cwd }, argv),
        cwd,
        env: childEnv(ctx.session.id),
        timeoutMs,
        signal: ctx.abortSignal,
        maxOutputBytes: MAX_OUTPUT_BYTES,
      });
      const result = { exitCode: run.exitCode, stdout: withTruncationNote(run.stdout), stderr: withTruncationNote(run.stderr) };
      if (run.timedOut) {
        return errorResult(`The command ran longer than ${timeoutMs} ms and was killed with its child processes.`, { ...result, timedOut: true });
      }
      if (run.aborted) return errorResult("The command was stopped because the turn was cancelled.", { ...result, killed: true });
      return run.signal ? { ...result, signal: run.signal } : result;
    },
    // The command's own limit kills it; the harness's limit only backs that up.
    { effect: "write", timeoutMs: MAX_TIMEOUT_MS + 60_000 },
  );
}
