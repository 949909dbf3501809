/**
 * Two processes on one state root firing the same schedules at the same
 * ticks, with nothing but the tick claims between them (their leases
 * overlap): each schedule fires once per tick.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_ROOT } from "../load/testing/temp-project.ts";
import { tempRoots } from "../store/testing/temp-root.ts";

const WORKER = path.join(KIT_ROOT, "server", "schedules", "testing", "schedule-worker.ts");
const roots = tempRoots();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  roots.cleanup();
});

function worker(stateRoot: string, holder: string, count: number) {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, stateRoot, holder, String(count)], { cwd: KIT_ROOT, stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const lines: string[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, lines, exited };
}

async function printed(node: ReturnType<typeof worker>, line: string): Promise<void> {
  while (!node.lines.includes(line)) {
    if (node.child.exitCode !== null) throw new Error(`the worker exited: ${node.lines.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("fires each of 150 schedules once per tick across two processes racing for the same ticks", async () => {
  const stateRoot = roots.root();
  // The first opens (and migrates) the store alone; then both plan their schedules and wait to start together.
  const a = worker(stateRoot, "proc-a", 150);
  await printed(a, "ready");
  const b = worker(stateRoot, "proc-b", 150);
  await printed(b, "ready");
  a.child.stdin!.write("go\n");
  b.child.stdin!.write("go\n");
  expect(await a.exited).toBe(0);
  expect(await b.exited).toBe(0);

  const firings = [...a.lines, ...b.lines].filter((line) => line.startsWith("fired "));
  const expected = ["09:00", "09:05", "09:10"].flatMap((tick) => Array.from({ length: 150 }, (_, i) => `fired s${i} 2026-03-02T${tick}:00.000Z`));
  expect(firings.sort()).toEqual(expected.sort());
}, 120_000);
