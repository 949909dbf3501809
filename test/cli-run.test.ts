import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { KIT_DIR, startServer } from "./support/bdk-server.ts";
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

it("run --url and call --url print what the in-process commands print", async () => {
  const server = await startServer({ dir: PR_APPROVER });
  try {
    const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-cli-url-"));
    const local = await runBdk(["run", "--dir", PR_APPROVER, "--json", "--message", MESSAGE, "--state-root", stateRoot], {
      BDK_MODEL: "scripted",
    });
    const remote = await runBdk(["run", "--url", server.url, "--json", "--message", MESSAGE]);
    expect(remote.code, remote.stderr).toBe(0);
    // Same shape and content; the session id differs, and input tokens count the workspace path in the system prompt.
    const comparable = (text: string) => {
      const { sessionId, usage, ...rest } = JSON.parse(text) as { sessionId: string; usage: Record<string, number> };
      return { ...rest, sessionId: typeof sessionId, usage: { ...usage, inputTokens: typeof usage.inputTokens } };
    };
    expect(comparable(remote.stdout)).toEqual(comparable(local.stdout));

    const streamedLocal = await runBdk(["run", "--dir", PR_APPROVER, "--message", MESSAGE, "--state-root", stateRoot], {
      BDK_MODEL: "scripted",
    });
    const streamedRemote = await runBdk(["run", "--url", server.url, "--message", MESSAGE]);
    expect(streamedRemote.stdout).toBe(streamedLocal.stdout);

    const input = '{"prUrl":"https://github.com/acme/checkout/pull/42"}';
    const callLocal = await runBdk(["call", "inspect_pr", "--dir", PR_APPROVER, "--state-root", stateRoot, "--input", input]);
    const callRemote = await runBdk(["call", "inspect_pr", "--url", server.url, "--input", input]);
    expect(callRemote.stdout).toBe(callLocal.stdout);
  } finally {
    await server.stop();
  }
}, 120_000);

it("bdk run --workspace-file puts a local file into the session workspace, and refuses a malformed one with exit 2", async () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "bdk-cli-ws-"));
  writeFileSync(path.join(scratch, "plan.md"), "Release on Thursday.");
  const run = await runBdk(
    [
      "run", "--dir", PR_APPROVER, "--json", "--state-root", scratch,
      "--message", 'Use read with {"path":"notes/plan.md"}',
      "--workspace-file", `notes/plan.md=${path.join(scratch, "plan.md")}`,
    ],
    { BDK_MODEL: "scripted" },
  );
  expect(run.code, run.stderr).toBe(0);
  const printed = JSON.parse(run.stdout) as { toolCalls: { name: string; output: { content: string } }[] };
  expect(printed.toolCalls[0]).toMatchObject({ name: "read", output: { content: "Release on Thursday." } });

  const malformed = await runBdk(["run", "--dir", PR_APPROVER, "--message", "hi", "--workspace-file", "plan.md"], { BDK_MODEL: "scripted" });
  expect(malformed.code).toBe(2);
  expect(malformed.stderr).toContain('--workspace-file expects path=file, got "plan.md"');
});
