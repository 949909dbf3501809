/**
 * `bdk dev` checks an edited project in a child process (`bdk validate`)
 * before it loads the edit into the server. Importing runs the project's
 * top-level code, and code that never yields (an endless loop) can only be
 * stopped by ending the process it runs in (import-guard.ts): in the child,
 * that ends the check, not the server and its sessions.
 */
import { execFile } from "node:child_process";
import { kitPath } from "../kit-dir.ts";
import { importTimeoutMs } from "../load/import-guard.ts";

/** The check's own limit: every import may use its deadline, plus starting the child. */
const checkLimitMs = () => 3 * importTimeoutMs() + 30_000;

/** Undefined when the agent at `rootDir` validates (its evals may have errors); otherwise the error lines the check printed (or why it ended). */
export function checkInChildProcess(rootDir: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [kitPath("bin", "bdk.mjs"), "validate", "--dir", rootDir],
      { env: { ...process.env, NO_COLOR: "1" }, timeout: checkLimitMs(), killSignal: "SIGKILL", maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(undefined);
        const errors = `${stdout}\n${stderr}`
          .split("\n")
          .filter((line) => line.startsWith("error "))
          .map((line) => line.slice("error".length).trim());
        if (errors.length === 0) return resolve([`the check of the edit (bdk validate) ended without a report (${error.signal ?? `exit ${String(error.code)}`})`]);
        // Errors of evals/ alone do not stop the bot's reload (the agent itself can run); the reload reports them.
        const agentErrors = errors.filter((line) => !line.startsWith("evals/"));
        resolve(agentErrors.length > 0 ? agentErrors : undefined);
      },
    );
  });
}
