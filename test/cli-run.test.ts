import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { KIT_DIR } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

const PR_APPROVER = path.join(KIT_DIR, "bot-examples", "pr-approver");
const MESSAGE = "Inspect https://github.com/acme/checkout/pull/42";

it("bdk run --json prints the reply and the inspect_pr call; the trace replays the same with bdk trajectory", async () => {
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-cli-run-"));
  const run = await runBdk(["run", "--dir", PR_APPROVER, "--json", "--message", MESSAGE, "--state-root", stateRoot], {
    BDK_MODEL: "scripted",
  });
  expect(run.code, run.stderr).toBe(0);
  const printed = JSON.parse(run.stdout) as {
    reply: string;
    toolCalls: { name: string; input: unknown; isError: boolean }[];
    usage: { inputTokens: number };
    sessionId: string;
  };
  expect(printed.toolCalls).toEqual([
    expect.objectContaining({ name: "inspect_pr", input: { prUrl: "https://github.com/acme/checkout/pull/42" }, isError: false }),
  ]);
  expect(printed.reply).toContain("trivial");
  expect(printed.usage.inputTokens).toBeGreaterThan(0);

  const trace = path.join(stateRoot, "traces", `${printed.sessionId}.ndjson`);
  const replay = await runBdk(["trajectory", "--events", trace]);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toBe(run.stdout);
});

it("streams the reply and the tool call to the terminal, and exits 1 naming the variable without a credential", async () => {
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-cli-run-"));
  const streamed = await runBdk(["run", "--dir", PR_APPROVER, "--message", MESSAGE, "--state-root", stateRoot], {
    BDK_MODEL: "scripted",
  });
  expect(streamed.code).toBe(0);
  expect(streamed.stdout).toMatch(/→ inspect_pr \{"prUrl":"https:\/\/github.com\/acme\/checkout\/pull\/42"\}/);
  expect(streamed.stdout).toMatch(/← inspect_pr /);

  const unavailable = await runBdk(["run", "--dir", PR_APPROVER, "--message", "hello", "--state-root", stateRoot], {
    BDK_MODEL: undefined,
    XAI_API_KEY: undefined,
  });
  expect(unavailable.code).toBe(1);
  expect(unavailable.stderr).toContain("model_unavailable");
  expect(unavailable.stderr).toContain("XAI_API_KEY");
});

it("calls a tool directly and reports usage errors with exit 2", async () => {
  const called = await runBdk([
    "call",
    "inspect_pr",
    "--dir",
    PR_APPROVER,
    "--state-root",
    mkdtempSync(path.join(tmpdir(), "bdk-cli-call-")),
    "--input",
    '{"prUrl":"https://github.com/acme/checkout/pull/42"}',
  ]);
  expect(called.code).toBe(0);
  expect(JSON.parse(called.stdout)).toMatchObject({ isError: false, result: { complexity: "trivial" } });

  const usage = await runBdk(["run", "--no-such-flag"]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("--help");
  const badJson = await runBdk(["call", "inspect_pr", "--dir", PR_APPROVER, "--input", "{nope"]);
  expect(badJson.code).toBe(2);
  expect((await runBdk(["version"])).stdout).toMatch(/^bdk \d+\.\d+\.\d+/);
  const help = await runBdk(["help", "run", "--json"]);
  expect(JSON.parse(help.stdout).flags.map((flag: { name: string }) => flag.name)).toContain("message");
});
