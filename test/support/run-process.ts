import { spawn } from "node:child_process";
import { BIN, KIT_DIR } from "./bdk-server.ts";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningProcess {
  /** Stdout so far. */
  stdout(): string;
  /** Resolves with the first match of `pattern` in stdout, as soon as it is printed; rejects if the process ends first. */
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Settles when the process has exited and its output is closed. */
  done: Promise<ProcessResult>;
  /** Ends the process (SIGTERM) if it is still running. */
  kill(): void;
}

export interface ProcessOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (at once when absent). */
  input?: string;
}

/** Starts a command, capturing its output (no colour); the caller may read stdout while it runs. */
export function startProcess(command: string, args: string[], options: ProcessOptions = {}): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd ?? KIT_DIR,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A child that exits without reading its input closes the pipe: that is not the test's failure.
  child.stdin.on("error", () => {});
  child.stdin.end(options.input);
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<ProcessResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
  return {
    stdout: () => stdout,
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
    waitForOutput(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (!match) return;
          listeners.delete(check);
          resolve(match);
        };
        listeners.add(check);
        check();
        void done.then((result) => {
          if (listeners.delete(check)) reject(new Error(`exited (${result.code}) before printing ${pattern}: ${result.stdout}${result.stderr}`));
        }, reject);
      });
    },
  };
}

/** Runs a command to completion, capturing its output (no colour). */
export function runProcess(command: string, args: string[], options: ProcessOptions = {}): Promise<ProcessResult> {
  return startProcess(command, args, options).done;
}

/** `bdk <args>` as a user runs it: the real bin in a child process. */
export function runBdk(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<ProcessResult> {
  return runProcess(process.execPath, [BIN, ...args], { env, cwd });
}

/** `bdk <args>` in a child process the test talks to while it runs. */
export function startBdk(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): RunningProcess {
  return startProcess(process.execPath, [BIN, ...args], { env, cwd });
}
