import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executeTool, type ToolOutcome } from "../execute-tool.ts";
import { sandboxAvailable } from "./sandbox.ts";
import { shellTool } from "./shell.ts";
import { tempDir, toolContext } from "./test-context.ts";

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

const shell = (input: Record<string, unknown>, signal?: AbortSignal, sandbox = false) =>
  executeTool(shellTool({ sandbox }), input, toolContext(temp.dir, signal ? { abortSignal: signal } : {}));

/** The JSON details an error result carries after its first line. */
function errorDetails(outcome: ToolOutcome): Record<string, unknown> {
  const text = (outcome.output as { content: Array<{ text: string }> }).content[0].text;
  return JSON.parse(text.slice(text.indexOf("\n") + 1));
}

/** Host processes whose command line contains `marker` and that still run (zombies have an empty command line). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Waits (up to 2 s) for every process carrying `marker` to end; they must. */
async function expectGone(marker: string) {
  for (let attempt = 0; attempt < 40 && processesWith(marker).length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(processesWith(marker)).toEqual([]);
}

/** A `sleep` no other test runs, to find its processes by command line. */
const uniqueSleep = () => `${30 + Math.floor(Math.random() * 1e6) / 1e6}`;

/** Runs the shell tool in a fresh `node` process whose own environment and argv hold a secret, as a server's would. */
function shellInServerProcess(command: string, workspace: string): Promise<string> {
  const shellModule = pathToFileURL(path.join(import.meta.dirname, "shell.ts")).href;
  const contextModule = pathToFileURL(path.join(import.meta.dirname, "test-context.ts")).href;
  const code = `
    const { shellTool } = await import(${JSON.stringify(shellModule)});
    const { toolContext } = await import(${JSON.stringify(contextModule)});
    const result = await shellTool().execute({ command: ${JSON.stringify(command)} }, toolContext(${JSON.stringify(workspace)}));
    process.stdout.write(JSON.stringify(result));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, "--", "--bearer-token=argv-secret-7a1"], {
      env: { ...process.env, SERVER_ONLY_SECRET: "env-secret-5c2" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.once("error", reject);
    child.once("close", () => resolve(out));
  });
}

describe("shell", () => {
  it("runs in the workspace and returns exit code, stdout and stderr; a non-zero exit is not an error", async () => {
    const outcome = await shell({ command: "pwd; echo oops >&2; echo made > made.txt; exit 3" });
    expect(outcome.isError).toBe(false);
    expect(outcome.output).toEqual({ exitCode: 3, stdout: `${temp.dir}\n`, stderr: "oops\n" });
    expect(readFileSync(path.join(temp.dir, "made.txt"), "utf8")).toBe("made\n");
  });

  it("caps each stream at 64 KiB and says it was truncated", async () => {
    const outcome = await shell({ command: "head -c 200000 /dev/zero | tr '\\0' a" });
    const stdout = (outcome.output as { stdout: string }).stdout;
    expect(stdout.startsWith("a".repeat(65536) + "\n[output truncated: 200000 bytes in total")).toBe(true);
  });

  it("does not pass server secrets to the command", async () => {
    process.env.SECRET_X = "hunter2";
    try {
      const outcome = await shell({ command: 'echo "[$SECRET_X]"; echo "$BDK_SESSION_ID"' });
      expect((outcome.output as { stdout: string }).stdout).toBe("[]\nses_test\n");
    } finally {
      delete process.env.SECRET_X;
    }
  });

  it("kills a command that outlives its time limit together with its child processes", async () => {
    const sleep = uniqueSleep();
    const outcome = await shell({ command: `sleep ${sleep} & sleep ${sleep}`, timeoutMs: 500 });
    expect(outcome.isError).toBe(true);
    expect(errorDetails(outcome)).toMatchObject({ timedOut: true, exitCode: null });
    await expectGone(sleep);
  });

  it("kills children that left the command's session (setsid) at the time limit", async () => {
    const sleep = uniqueSleep();
    const outcome = await shell({ command: `setsid sleep ${sleep} & setsid sh -c 'sleep ${sleep}' & sleep ${sleep}`, timeoutMs: 500 });
    expect(errorDetails(outcome)).toMatchObject({ timedOut: true });
    await expectGone(sleep);
  });

  it("kills the command and its children when the turn is aborted", async () => {
    const controller = new AbortController();
    const sleep = uniqueSleep();
    const pending = shell({ command: `setsid sleep ${sleep} & sleep ${sleep}` }, controller.signal);
    for (let attempt = 0; attempt < 100 && processesWith(sleep).length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const outcome = await pending;
    expect(outcome.isError).toBe(true);
    expect(errorDetails(outcome)).toMatchObject({ killed: true });
    await expectGone(sleep);
  });

  it("cannot read the server's environment or command line through /proc", async () => {
    const printed = await shellInServerProcess(
      "cat /proc/$PPID/environ /proc/$PPID/cmdline; for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; done 2>/dev/null; echo done",
      temp.dir,
    );
    expect(printed).toContain("done");
    expect(printed).not.toContain("env-secret-5c2");
    expect(printed).not.toContain("argv-secret-7a1");
  }, 30_000);

  it("runs bash without login or rc files", async () => {
    const outcome = await shell({ command: 'echo "$-"; shopt -q login_shell && echo login || echo plain' });
    const stdout = (outcome.output as { stdout: string }).stdout;
    expect(stdout).toContain("plain");
  });

  it("validates the time limit (max 10 minutes)", async () => {
    expect(await shell({ command: "true", timeoutMs: 600_001 })).toMatchObject({ isError: true });
  });
});

const bwrapInstalled = (() => {
  try {
    execFileSync("which", ["bwrap"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("sandboxed shell", () => {
  it("writes only to the workspace and has no network under bubblewrap; is reported unavailable without it", async () => {
    if (!bwrapInstalled) {
      expect(sandboxAvailable()).toBe(false);
      return;
    }
    expect(sandboxAvailable()).toBe(true);
    const outcome = await shell(
      { command: "echo in > inside.txt && cat inside.txt; touch /etc/bdk-probe 2>/dev/null || echo ro; cut -d: -f1 /proc/net/dev | tail -n +3" },
      undefined,
      true,
    );
    expect(outcome.isError).toBe(false);
    const stdout = (outcome.output as { stdout: string }).stdout;
    expect(stdout).toContain("in\nro\n");
    // /proc is mounted afresh in the sandbox, so /proc/net/dev lists the sandbox's own network: loopback only.
    expect(stdout.split("\n").slice(2).map((name) => name.trim()).filter(Boolean)).toEqual(["lo"]);
    expect(readFileSync(path.join(temp.dir, "inside.txt"), "utf8")).toBe("in\n");
  });
});
