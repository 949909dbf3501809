/**
 * Trace files are a cache of the database: the lines a crash kept from them
 * come back when a restarted server opens the state root, and
 * `bdk trajectory` restores holes from the database beside the file or
 * refuses a file with holes, naming the missing range.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

type Event = { type: string; index: number };
const PR_APPROVER = path.join(KIT_DIR, "bot-examples", "pr-approver");
const MESSAGE = "Inspect https://github.com/acme/checkout/pull/42";
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
});

const traceOf = (stateRoot: string, sessionId: string) => path.join(stateRoot, "traces", `${sessionId}.ndjson`);
const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

it("restores, when the restarted server opens the state root, the events a kill -9 kept out of the trace", async () => {
  const first = await startServer({ dir: PR_APPROVER });
  servers.push(first);
  const created = (await (
    await fetch(`${first.url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: MESSAGE }) })
  ).json()) as { sessionId: string };
  await readNdjson<Event>(await fetch(`${first.url}/v1/session/${created.sessionId}/stream`), (event) => event.type === "session.waiting");
  await first.stop("SIGKILL");

  // What dying between the commit of the turn's last events and their copy leaves: the file ends early, its last line torn.
  const file = traceOf(first.stateRoot, created.sessionId);
  const kept = lines(file);
  writeFileSync(file, `${kept.slice(0, -3).join("\n")}\n${kept.at(-3)!.slice(0, 25)}`);

  const second = await startServer({ dir: PR_APPROVER, stateRoot: first.stateRoot, port: first.port });
  servers.push(second);
  const stored = await (await fetch(`${second.url}/v1/session/${created.sessionId}/events`)).text();
  expect(readNdjsonText(readFileSync(file, "utf8"))).toEqual(readNdjsonText(stored));
}, 240_000);

it("bdk trajectory restores a hole from the database beside the trace, and refuses a copy with a hole naming the range", async () => {
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-trace-repair-"));
  const run = await runBdk(["run", "--dir", PR_APPROVER, "--json", "--message", MESSAGE, "--state-root", stateRoot], { BDK_MODEL: "scripted" });
  expect(run.code, run.stderr).toBe(0);
  const file = traceOf(stateRoot, (JSON.parse(run.stdout) as { sessionId: string }).sessionId);
  const all = lines(file);
  const holed = [...all.slice(0, 3), ...all.slice(5)].join("\n") + "\n";

  const elsewhere = path.join(mkdtempSync(path.join(tmpdir(), "bdk-trace-copy-")), "copy.ndjson");
  writeFileSync(elsewhere, holed);
  const refused = await runBdk(["trajectory", "--events", elsewhere]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is missing events 3–4");
  expect(refused.stdout).toBe("");
  const partial = await runBdk(["trajectory", "--events", elsewhere, "--allow-gaps"]);
  expect(partial.code).toBe(0);
  expect(partial.stderr).toContain("is missing events 3–4");

  writeFileSync(file, holed);
  const restored = await runBdk(["trajectory", "--events", file]);
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stderr).toContain("restored them from");
  expect(restored.stdout).toBe(run.stdout);
  copyFileSync(file, elsewhere);
  expect((await runBdk(["trajectory", "--events", elsewhere])).code).toBe(0);
}, 120_000);

function readNdjsonText(text: string): unknown[] {
  const byIndex = new Map<number, unknown>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const event = JSON.parse(line) as Event;
      byIndex.set(event.index, event);
    } catch {
      // a torn line
    }
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, event]) => event);
}
