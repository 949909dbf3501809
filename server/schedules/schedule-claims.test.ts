/**
 * Two processes on one state root firing the same schedules at the same
 * ticks, with nothing but the tick claims between them (their leases
 * overlap): each schedule fires once per tick.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { type RunningProcess, startProcess } from "../../test/support/run-process.ts";
import { KIT_ROOT } from "../load/testing/temp-project.ts";
import { tempRoots } from "../store/testing/temp-root.ts";

const WORKER = path.join(KIT_ROOT, "server", "schedules", "testing", "schedule-worker.ts");
const roots = tempRoots();
const workers: RunningProcess[] = [];
afterAll(() => {
  for (const worker of workers) worker.kill();
  roots.cleanup();
});

function worker(stateRoot: string, holder: string, count: number, goFile: string): RunningProcess {
  const started = startProcess(process.execPath, ["--import", "tsx", WORKER, stateRoot, holder, String(count), goFile]);
  workers.push(started);
  return started;
}

it("fires each of 150 schedules once per tick across two processes racing for the same ticks", async () => {
  const stateRoot = roots.root();
  const goFile = path.join(stateRoot, "go");
  // The first opens (and migrates) the store alone; then both plan their schedules and wait to start together.
  const a = worker(stateRoot, "proc-a", 150, goFile);
  await a.waitForOutput(/^ready$/m);
  const b = worker(stateRoot, "proc-b", 150, goFile);
  await b.waitForOutput(/^ready$/m);
  writeFileSync(goFile, "");
  const results = [await a.done, await b.done];
  expect(results.map((result) => result.code)).toEqual([0, 0]);

  const firings = results.flatMap((result) => result.stdout.split("\n")).filter((line) => line.startsWith("fired "));
  const expected = ["09:00", "09:05", "09:10"].flatMap((tick) => Array.from({ length: 150 }, (_, i) => `fired s${i} 2026-03-02T${tick}:00.000Z`));
  expect(firings.sort()).toEqual(expected.sort());
}, 120_000);
