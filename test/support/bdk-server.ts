import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(KIT_DIR, "bin", "bdk.mjs");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  stateRoot: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait; `kill -9` with `signal: "SIGKILL"`. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The port in `bdk serve`'s "Serving at http://host:port" line (also inside a JSON log line). */
const ANNOUNCED_PORT = /Serving at http:\/\/[^\s"]*:(\d+)/;

/** Polls until the server answers `/health` on `port` (undefined: the port it announces); throws if it exits first. */
async function healthyPort(child: ChildProcess, output: () => string, port: number | undefined): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bdk serve exited ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`bdk serve did not become healthy:\n${output()}`);
    const known = port ?? Number(output().match(ANNOUNCED_PORT)?.[1] ?? Number.NaN);
    if (!Number.isNaN(known)) {
      try {
        if ((await fetch(`http://127.0.0.1:${known}/health`)).ok) return known;
      } catch {
        // not listening yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts `bdk serve` as a real child process (own process group) and waits for `/health`.
 * Without `port`, the server binds port 0 and the test reads the port it announces: a port
 * picked here and bound later by the child could be taken meanwhile by another test file's
 * server (vitest runs files in parallel), whose /health would then answer for this one.
 */
export async function startServer(options: {
  dir: string;
  args?: string[];
  env?: Record<string, string>;
  stateRoot?: string;
  port?: number;
  /** The Node binary (default: this one) and the kit it runs (default: this checkout); benches compare Node versions. */
  node?: string;
  kitDir?: string;
}): Promise<RunningServer> {
  const stateRoot = options.stateRoot ?? mkdtempSync(path.join(tmpdir(), "bdk-state-"));
  const kitDir = options.kitDir ?? KIT_DIR;
  const child = spawn(
    options.node ?? process.execPath,
    [path.join(kitDir, "bin", "bdk.mjs"), "serve", "--dir", options.dir, "--port", String(options.port ?? 0), "--state-root", stateRoot, ...(options.args ?? [])],
    {
      cwd: kitDir,
      env: { ...process.env, BDK_MODEL: "scripted", NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const port = await healthyPort(child, () => output, options.port);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stateRoot,
    child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid!, signal);
      } catch {
        child.kill(signal);
      }
      await exited;
    },
  };
}

/** Reads an NDJSON response until `until` says stop (or the stream ends); ignores keepalives (bare newlines and `stream.keepalive` lines). */
export async function readNdjson<T = Record<string, unknown>>(
  response: Response,
  until: (item: T, all: T[]) => boolean = () => false,
): Promise<T[]> {
  const items: T[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line && !line.startsWith('{"type":"stream.keepalive"')) {
        const item = JSON.parse(line) as T;
        items.push(item);
        if (until(item, items)) {
          await reader.cancel();
          return items;
        }
      }
      newline = buffer.indexOf("\n");
    }
  }
  return items;
}
