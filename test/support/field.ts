/**
 * The field fixtures (`test/fixtures/field/`): projects written the way real
 * projects for the published kit are, run with the real `bdk` in child
 * processes and served by a real `bdk serve`.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll } from "vitest";
import { copyProject } from "../../server/load/testing/temp-project.ts";
import { KIT_DIR, startServer, type RunningServer } from "./bdk-server.ts";
import { runBdk, type ProcessResult } from "./run-process.ts";
import { servedChild } from "./served-project.ts";

export const FIELD_DIR = path.join(KIT_DIR, "test", "fixtures", "field");

/** A writable copy of a field fixture, with `node_modules` linked as in an installed project. */
export function fieldProject(name: string): string {
  return copyProject(path.join(FIELD_DIR, name));
}

export function freshStateRoot(): string {
  return mkdtempSync(path.join(os.tmpdir(), "bdk-field-state-"));
}

/** `bdk <args>` on the scripted model (in `cwd`); `--state-root` defaults to a fresh directory for commands that store state. */
export function scriptedBdk(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<ProcessResult> {
  const stores = ["run", "call", "eval"].includes(args[0]) && !args.includes("--state-root");
  return runBdk([...args, ...(stores ? ["--state-root", freshStateRoot()] : [])], { BDK_MODEL: "scripted", ...options.env }, options.cwd);
}

export interface ServedField {
  server: RunningServer;
  get<T = Record<string, unknown>>(route: string): Promise<{ status: number; body: T }>;
  post<T = Record<string, unknown>>(route: string, body: unknown): Promise<{ status: number; body: T }>;
  /** Polls `GET <base>/v1/evals/runs/:id` until the run is no longer running. */
  finishedRun(runId: string, base?: string): Promise<{ run: { status: string; passed: boolean }; cases: { id: string; verdict: string }[] }>;
}

/** JSON requests to a running server. */
function jsonClient(server: () => RunningServer): ServedField {
  const request = async <T>(route: string, init?: RequestInit) => {
    const response = await fetch(`${server().url}${route}`, init);
    return { status: response.status, body: (await response.json()) as T };
  };
  const client: ServedField = {
    get server() {
      return server();
    },
    get: (route) => request(route),
    post: (route, body) => request(route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    async finishedRun(runId, base = "") {
      for (;;) {
        const { body } = await client.get<Awaited<ReturnType<ServedField["finishedRun"]>>>(`${base}/v1/evals/runs/${runId}`);
        if (body.run.status !== "running") return body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return client;
}

/** `bdk serve` of `dir` in a child process (scripted model), for one test; the caller stops it. */
export async function serveField(dir: string, args: string[] = []): Promise<ServedField> {
  const server = await startServer({ dir, args });
  return jsonClient(() => server);
}

/** A copy of the fixture `name`, served by `bdk serve` for the tests of one describe block. */
export function servedFieldProject(name: string, args: string[] = []): { readonly dir: string } & ServedField {
  let dir: string | undefined;
  // Registered before servedChild's hook, so the copy exists when the server starts.
  beforeAll(() => {
    dir = fieldProject(name);
  });
  const child = servedChild(() => ({ dir: dir!, args }));
  const client = jsonClient(() => child.server);
  return Object.defineProperty(client, "dir", {
    get() {
      if (dir === undefined) throw new Error("the fixture is copied from beforeAll on");
      return dir;
    },
  }) as ServedField & { readonly dir: string };
}

export interface FieldProject {
  dir: string;
  stateRoot: string;
  /** `bdk <command> --dir <copy> [--state-root ...] <args>` on the scripted model. */
  bdk(command: string, args?: string[], env?: Record<string, string | undefined>): Promise<ProcessResult>;
}

const STATELESS = new Set(["validate", "info"]);

/** A copy of a field fixture with its own state root, and `bdk` bound to both. */
export function fieldProjectWithState(name: string): FieldProject {
  const dir = fieldProject(name);
  const stateRoot = freshStateRoot();
  return {
    dir,
    stateRoot,
    bdk: (command, args = [], env = {}) =>
      runBdk([command, "--dir", dir, ...(STATELESS.has(command) ? [] : ["--state-root", stateRoot]), ...args], { BDK_MODEL: "scripted", ...env }),
  };
}

/** The zod version a fixture installed (scripts/setup.sh --for-tests installs it from the fixture's lockfile). */
export function installedZod(name: string): string | undefined {
  const manifest = path.join(FIELD_DIR, name, "node_modules", "zod", "package.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : undefined;
}
