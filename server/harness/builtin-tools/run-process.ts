/**
 * Runs a child in its own process group with captured, capped output, and
 * kills it with every descendant on timeout or abort.
 */
import { spawn } from "node:child_process";
import { killProcessTree } from "./process-tree.ts";

export interface CapturedOutput {
  text: string;
  totalBytes: number;
  truncated: boolean;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  timedOut: boolean;
  aborted: boolean;
}

export interface ProcessOptions {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Written to stdin, then closed; without it stdin is closed at once. */
  stdin?: string;
  maxOutputBytes: number;
}

/** After killing the group, how long to wait for pipes held by a process that left it. */
const PIPE_GRACE_MS = 1000;

class CappedBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.max) return;
    const part = chunk.subarray(0, this.max - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  result(): CapturedOutput {
    return { text: Buffer.concat(this.chunks).toString("utf8"), totalBytes: this.total, truncated: this.total > this.kept };
  }
}

/** The text with a note when it was cut, for output a model reads. */
export function withTruncationNote(output: CapturedOutput): string {
  if (!output.truncated) return output.text;
  return `${output.text}\n[output truncated: ${output.totalBytes} bytes in total, showing the first ${Buffer.byteLength(output.text)}]`;
}

/**
 * The environment of commands run for the model: no server variables (API
 * keys, tokens) leak into them; only what finding programs needs.
 */
export function childEnv(sessionId?: string): NodeJS.ProcessEnv {
  const env: Record<string, string> = { PATH: process.env.PATH || "/usr/local/bin:/usr/bin:/bin" };
  if (process.env.HOME) env.HOME = process.env.HOME;
  if (process.env.NODE_PATH) env.NODE_PATH = process.env.NODE_PATH;
  if (sessionId) env.BDK_SESSION_ID = sessionId;
  // Next's types declare NODE_ENV as always present; a child needs no NODE_ENV.
  return env as NodeJS.ProcessEnv;
}

export function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const stdout = new CappedBuffer(options.maxOutputBytes);
  const stderr = new CappedBuffer(options.maxOutputBytes);
  const finished = (exitCode: number | null, signal: NodeJS.Signals | null, timedOut: boolean, aborted: boolean): ProcessResult => ({
    exitCode,
    signal,
    stdout: stdout.result(),
    stderr: stderr.result(),
    timedOut,
    aborted,
  });
  if (options.signal?.aborted) return Promise.resolve(finished(null, null, false, true));

  return new Promise((resolve, reject) => {
    const [command, ...args] = options.argv;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: "pipe",
    });
    let timedOut = false;
    let aborted = false;

    const stop = () => {
      if (child.pid !== undefined) killProcessTree(child.pid);
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      cleanUp();
      reject(error);
    });
    child.on("close", (code, signal) => {
      cleanUp();
      resolve(finished(code, signal, timedOut, aborted));
    });
    // A child that exits without reading its input must not crash the server with EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
  });
}
