/**
 * Reminder timers at scale: `npx tsx bench/reminders/run.ts [count] [spreadMs]`.
 * Stores `count` armed named-handler reminders due over `spreadMs`, restarts
 * the agent, and reports how long start-up takes to load and arm them, and
 * how late each fires against its due time (the handler only records the
 * time, so this measures the timers, not model turns).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openAgent } from "../../server/host/open-agent.ts";

const count = Number(process.argv[2] ?? 10_000);
const spreadMs = Number(process.argv[3] ?? 10_000);
const KIT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const project = mkdtempSync(path.join(tmpdir(), "bdk-bench-reminders-"));
mkdirSync(path.join(project, "bot", "reminders"), { recursive: true });
symlinkSync(path.join(KIT, "node_modules"), path.join(project, "node_modules"), "dir");
writeFileSync(path.join(project, "package.json"), '{ "name": "bench-reminders", "type": "module" }');
writeFileSync(path.join(project, "bot", "instructions.md"), "Benchmark.");
writeFileSync(
  path.join(project, "bot", "reminders", "tick.ts"),
  `import { defineReminder } from "bdk/reminders";
export default defineReminder({
  async run({ args }) {
    (globalThis as { __benchFires?: number[] }).__benchFires!.push(Date.now() - Number(args.due));
    return { action: "skip" };
  },
});
`,
);
const fires: number[] = [];
(globalThis as { __benchFires?: number[] }).__benchFires = fires;
const stateRoot = path.join(project, "state");
const env = { BDK_MODEL: "scripted" };

try {
  const creator = await openAgent(project, { stateRoot, env });
  // Due times start after creation and the restart have surely finished.
  const firstDue = Date.now() + 3000 + count / 5;
  for (let i = 0; i < count; i++) {
    const due = firstDue + Math.floor((i * spreadMs) / count);
    await creator.automation.reminders.createRow({
      channelId: "bench",
      continuationToken: `bench:${i}`,
      at: new Date(due).toISOString(),
      handler: "tick",
      args: { due },
    });
  }
  await creator.close();

  let started = performance.now();
  const opened = await openAgent(project, { stateRoot, env });
  const openMs = performance.now() - started;
  started = performance.now();
  await opened.automation.start({ schedules: false, timers: true });
  const armMs = performance.now() - started;
  if (Date.now() > firstDue) throw new Error("start-up ran past the first due time: lower the count or raise the lead time");

  const deadline = firstDue + spreadMs + 30_000;
  while (fires.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await opened.close();

  const sorted = [...fires].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  const within = fires.filter((late) => late <= 1000).length;
  console.log(`load: ${count} armed reminders loaded and armed at start-up in ${armMs.toFixed(0)} ms (agent open: ${openMs.toFixed(0)} ms)`);
  console.log(
    `fire: ${fires.length}/${count} fired over ${spreadMs} ms; lateness p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${sorted.at(-1)} ms; ${within}/${count} within 1 s of due`,
  );
  if (fires.length !== count || within !== count) process.exitCode = 1;
} finally {
  rmSync(project, { recursive: true, force: true });
}
