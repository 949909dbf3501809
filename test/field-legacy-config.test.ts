/**
 * An agent config written for an earlier kit (`runtime: "local"`), an
 * instructions/ folder and a named subagent: accepted with a warning, and
 * `info --json` (the same object as GET /v1/info) summarises what it found.
 */
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { scriptedBdk, servedFieldProject } from "./support/field.ts";

afterAll(removeTempProjects);

describe("legacy-config", () => {
  const served = servedFieldProject("legacy-config");

  it("validates, warning about the legacy runtime key instead of dropping it silently", async () => {
    const result = await scriptedBdk(["validate", "--dir", served.dir]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      'warning  bot/agent.ts  "runtime" is not an agent config key; it is ignored',
      "         runtime was a setting of earlier kits; agents always run locally here. Remove it.",
      "release-helper: valid (0 errors, 1 warning)",
      "",
    ]);
  });

  it("info --json names the subagent, summarises the instructions and carries the warning; GET /v1/info is the same", async () => {
    const result = await scriptedBdk(["info", "--dir", served.dir, "--json"]);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout);
    expect(info.instructions).toEqual({
      source: "bot/instructions/",
      files: ["bot/instructions/01-role.md", "bot/instructions/02-rules.md"],
      length: 237,
      firstLine: "# Release Helper",
    });
    expect(info.subagents).toEqual([
      {
        id: "researcher",
        name: "Researcher",
        description: "Looks up background on a change before it goes into the notes.",
        file: "bot/subagents/researcher/agent.ts",
        instructions: {
          source: "bot/subagents/researcher/instructions.md",
          length: 62,
          firstLine: "Research the change you are given and answer in two sentences.",
        },
      },
    ]);
    expect(info.diagnostics).toEqual([
      {
        severity: "warning",
        code: "unknown_config_key",
        message: '"runtime" is not an agent config key; it is ignored',
        file: "bot/agent.ts",
        hint: "runtime was a setting of earlier kits; agents always run locally here. Remove it.",
      },
    ]);
    expect(info).toMatchObject({ displayName: "Release Helper", harnessTools: ["read", "grep", "glob", "ls", "task"], hosting: { secretNames: ["GITHUB_*"] } });
    expect((await served.get("/v1/info")).body).toEqual(info);

    const text = await scriptedBdk(["info", "--dir", served.dir]);
    expect(text.stdout).toContain("instructions: bot/instructions/ (237 characters): # Release Helper");
    expect(text.stdout).toMatch(/^ {2}researcher \(Researcher\) +Looks up background/m);
  });

  it("runs, calls, evals and serves", async () => {
    const run = await scriptedBdk(["run", "--dir", served.dir, "--text", "--message", "list_changes 'v1.4.0'"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Faster checkout");
    const call = await scriptedBdk(["call", "list_changes", "--dir", served.dir, "--input", '{"since":"v1.4.0"}']);
    expect(JSON.parse(call.stdout)).toEqual({ isError: false, result: { since: "v1.4.0", changes: ["Faster checkout", "Fix coupon rounding"] } });
    const evals = await scriptedBdk(["eval", "--dir", served.dir]);
    expect(evals).toMatchObject({ code: 0, stderr: "" });
    expect(evals.stdout).toContain("1 passed, 0 failed, 0 errored, 0 skipped · 1 case");
    expect((await served.post("/v1/tools/list_changes", { input: { since: "v1.4.0" } })).body).toMatchObject({ isError: false });
  });
});
