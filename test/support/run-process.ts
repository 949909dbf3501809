import { spawn } from "node:child_process";
import { BIN, KIT_DIR } from "./bdk-server.ts";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, capturing its output (no colour, no stdin). */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? KIT_DIR,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `bdk <args>` as a user runs it: the real bin in a child process. */
export function runBdk(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<ProcessResult> {
  return runProcess(process.execPath, [BIN, ...args], { env, cwd });
}
