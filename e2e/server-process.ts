/**
 * Starts `bdk serve` as a child in its own process group and stops the whole
 * group afterwards (the server may spawn a Next build or workers).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ServerProcess {
  baseUrl: string;
  token: string;
  logFile: string;
  stateRoot: string;
  stop(): Promise<void>;
}

/** A restart: the state root and token of a stopped server (the state root is then the caller's to remove). */
export interface Reuse {
  stateRoot: string;
  token: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `extraArgs` are added to the serve command (e.g. `--dev`); `name` picks the
 * log file. Without `reuse` the state root is new and removed on stop; with
 * it, the server opens that state root with that token and leaves it.
 */
export async function startServer(
  kitDir: string,
  projectDir: string,
  workDir: string,
  extraArgs: string[] = [],
  name = "server",
  reuse?: Reuse,
): Promise<ServerProcess> {
  const port = await freePort();
  const stateRoot = reuse?.stateRoot ?? mkdtempSync(path.join(tmpdir(), "bdk-e2e-state-"));
  const token = reuse?.token ?? `e2e-${Math.random().toString(36).slice(2)}`;
  mkdirSync(workDir, { recursive: true });
  const logFile = path.join(workDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(
    process.execPath,
    ["bin/bdk.mjs", "serve", "--dir", projectDir, "--port", String(port), "--state-root", stateRoot, "--bearer-token", token, ...extraArgs],
    { cwd: kitDir, env: { ...process.env, BDK_MODEL: "scripted" }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;

  let exited = false;
  child.once("exit", () => (exited = true));

  const stop = async () => {
    if (!exited && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!exited) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
    if (!reuse) rmSync(stateRoot, { recursive: true, force: true });
  };

  // The first start may build the web app (about a minute on two cores).
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (exited) {
      await stop();
      throw new Error(`the server exited during startup; see ${logFile}`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return { baseUrl, token, logFile, stateRoot, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the server did not answer GET /health within 240 s; see ${logFile}`);
}
