import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
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

/** Running (a zombie waiting for init to reap it has already died). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function expectGone(pid: number) {
  for (let attempt = 0; attempt < 40 && isAlive(pid); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(isAlive(pid)).toBe(false);
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
    const started = Date.now();
    const outcome = await shell({ command: "sleep 30 & echo $!; sleep 30", timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome.isError).toBe(true);
    const details = errorDetails(outcome);
    expect(details).toMatchObject({ timedOut: true, exitCode: null });
    const childPid = Number(String(details.stdout).trim());
    expect(childPid).toBeGreaterThan(0);
    await expectGone(childPid);
  });

  it("kills the command and its children when the turn is aborted", async () => {
    const controller = new AbortController();
    const pending = shell({ command: "sleep 30 & echo $! > child.pid; sleep 30" }, controller.signal);
    const pidFile = path.join(temp.dir, "child.pid");
    let childPid = 0;
    for (let attempt = 0; attempt < 100 && !childPid; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (existsSync(pidFile)) childPid = Number(readFileSync(pidFile, "utf8").trim());
    }
    controller.abort();
    const outcome = await pending;
    expect(outcome.isError).toBe(true);
    expect(errorDetails(outcome)).toMatchObject({ killed: true });
    await expectGone(childPid);
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
