import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { KIT_DIR, readNdjson, startServer } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

/** Its `noisy` hook fails on every turn.completed: that warning is the log line read here. */
const FIXTURE = path.join(KIT_DIR, "test", "fixtures", "otel-bot");

interface JsonLogLine {
  time: string;
  level: string;
  agent?: string;
  session?: string;
  turn?: string;
  message: string;
  fields?: Record<string, unknown>;
}

function jsonLines(text: string): JsonLogLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as JsonLogLine);
}

it("bdk run --log-format json writes one JSON object a line to stderr, naming agent, session and turn", async () => {
  const run = await runBdk(
    ["run", "--dir", FIXTURE, "--state-root", mkdtempSync(path.join(tmpdir(), "bdk-logs-")), "--json", "--log-format", "json", "--message", "hello"],
    { BDK_MODEL: "scripted" },
  );
  expect(run.code, run.stderr).toBe(0);
  const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
  const lines = jsonLines(run.stderr);
  const hook = lines.find((line) => line.message.includes("noisy hook"));
  expect(hook).toEqual({
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    level: "warn",
    agent: "otel-bot",
    session: sessionId,
    turn: expect.stringMatching(/^turn_/),
    message: "Hook noisy failed on turn.completed: noisy hook",
    fields: { hook: "noisy", event: "turn.completed" },
  });
});

it("bdk serve --log-format json prints only JSON lines, and GET /v1/logs (the playground's Logs) still serves them", async () => {
  const server = await startServer({ dir: FIXTURE, args: ["--log-format", "json"] });
  try {
    const created = (await (
      await fetch(`${server.url}/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "hello" }),
      })
    ).json()) as { sessionId: string };
    await readNdjson<{ type: string }>(await fetch(`${server.url}/v1/session/${created.sessionId}/stream`), (event) => event.type === "session.waiting");

    let logs: { msg: string; sessionId?: string; turnId?: string }[] = [];
    for (let attempt = 0; attempt < 50 && !logs.some((line) => line.msg.includes("noisy hook")); attempt++) {
      logs = ((await (await fetch(`${server.url}/v1/logs`)).json()) as { logs: typeof logs }).logs;
      if (!logs.some((line) => line.msg.includes("noisy hook"))) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logs.find((line) => line.msg.includes("noisy hook"))).toMatchObject({ sessionId: created.sessionId, turnId: expect.any(String) });

    const printed = jsonLines(server.output());
    expect(printed.find((line) => line.message.includes("noisy hook"))).toMatchObject({
      level: "warn",
      agent: "otel-bot",
      session: created.sessionId,
    });
    expect(printed.find((line) => line.message.startsWith("Serving at http://127.0.0.1:"))).toMatchObject({ level: "info" });
  } finally {
    await server.stop();
  }
});

it("refuses a --log-format it does not know", async () => {
  const run = await runBdk(["run", "--dir", FIXTURE, "--log-format", "xml", "--message", "hello"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--log-format is text or json, got "xml"');
});
