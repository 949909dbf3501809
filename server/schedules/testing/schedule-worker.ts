/**
 * Test support: one process firing schedules on a state root, as `bdk
 * serve` does, on a manual clock. Plans `count` schedules every five minutes
 * from 08:58 UTC, prints `ready`, waits for `<goFile>` to exist (so several
 * processes start the race together), moves its clock to 09:11 (ticks 09:00,
 * 09:05, 09:10), prints `fired <schedule> <tick>` per firing and `done`.
 * The schedules lease lapses at once (`leaseMs: 0`): every process holds it,
 * as two nodes do while a lease passes on, so only the tick claims stand
 * between them.
 * argv: <stateRoot> <holder> <count> <goFile>
 */
import { existsSync } from "node:fs";
import type { ScheduleDefinition } from "../../authoring/schedules.ts";
import { openStore } from "../../store/store.ts";
import { ManualClock } from "../clock.ts";
import { opsRunner } from "./ops-runner.ts";

const [stateRoot, holder, count, goFile] = process.argv.slice(2);
const clock = new ManualClock("2026-03-02T08:58:00Z");
const store = openStore(stateRoot, { clock: () => clock.now() });
const schedules = new Map<string, ScheduleDefinition>(Array.from({ length: Number(count) }, (_, i) => [`s${i}`, { cron: "*/5 * * * *", markdown: "Sweep." }]));
const runner = opsRunner(store, clock, holder, schedules, (name) => process.stdout.write(`fired ${name} ${clock.now().toISOString()}\n`), 0);
await runner.start();
console.log("ready");
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 2));
await clock.advanceTo("2026-03-02T09:11:00Z");
await runner.stop();
store.close();
console.log("done");
