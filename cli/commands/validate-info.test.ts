import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { capturedIO } from "../testing/captured-io.ts";
import { KIT_ROOT, removeTempProjects, tempProject } from "../../server/load/testing/temp-project.ts";
import { infoCommand } from "./info.ts";
import { validateCommand } from "./validate.ts";

afterAll(removeTempProjects);

/** Runs a command with captured output, as `bdk <name> ...argv` would. */
async function runCommand(command: Command, argv: string[], cwd = KIT_ROOT) {
  const captured = capturedIO(cwd);
  const code = await command.run(parseArgs(argv, command.flags), captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const BROKEN = {
  "bot/instructions.md": "x",
  "bot/tools/x.ts": 'export default { description: "no execute" } as unknown;\n',
  "bot/weird/a.ts": "",
};

describe("bdk validate", () => {
  it("prints a summary and exits 0 on a valid project", async () => {
    const result = await runCommand(validateCommand, ["--dir", "bot-examples/pr-approver"]);
    expect(result).toEqual({ code: 0, stdout: "pr-approver: valid (0 errors, 0 warnings)\n", stderr: "" });
  });

  it("prints each diagnostic with severity, file and hint, and exits 1 on errors", async () => {
    const dir = tempProject(BROKEN);
    const result = await runCommand(validateCommand, ["--dir", dir]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines).toContain("warning  bot/weird/  is not a known bot folder; ignored");
    expect(lines).toContain("error    bot/tools/x.ts  must default-export defineTool(...)");
    expect(lines).toContain("         It exports a plain object.");
    expect(lines.at(-2)).toBe(`${path.basename(dir)}: invalid (1 error, 1 warning)`);
  });

  it("--json prints { ok, diagnostics }", async () => {
    const dir = tempProject(BROKEN);
    const result = await runCommand(validateCommand, ["--dir", dir, "--json"]);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.ok).toBe(false);
    expect(parsed.diagnostics).toContainEqual({
      severity: "error",
      code: "wrong_export",
      message: "must default-export defineTool(...)",
      file: "bot/tools/x.ts",
      hint: "It exports a plain object.",
    });
    const clean = JSON.parse((await runCommand(validateCommand, ["--dir", "bot-examples/hello", "--json"])).stdout);
    expect(clean).toEqual({ ok: true, diagnostics: [] });
  });

  it("validates every agent of a multi-agent folder, prefixing files with the slug", async () => {
    const dir = tempProject({ "good/bot/instructions.md": "x", "bad/bot/tools/t.ts": "" });
    const result = await runCommand(validateCommand, ["--dir", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error    bad/bot/instructions.md  the root agent has no instructions");
    expect(result.stdout).toContain("good (good): valid (0 errors, 0 warnings)");
  });
});

describe("bdk info", () => {
  it("--json prints the projectInfo object", async () => {
    const result = await runCommand(infoCommand, ["--dir", "bot-examples/pr-approver", "--json"]);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout);
    expect(info.name).toBe("pr-approver");
    expect(info.tools.map((tool: { name: string; effect: string; needsApproval: boolean }) => [tool.name, tool.effect, tool.needsApproval])).toEqual([
      ["inspect_pr", "read", false],
      ["submit_review", "write", true],
    ]);
    expect(info.evals).toEqual([
      { id: "readiness", file: "evals/readiness.eval.ts", tags: ["smoke"] },
      { id: "review/approved", file: "evals/review.eval.ts", tags: ["approvals"] },
      { id: "review/denied", file: "evals/review.eval.ts", tags: ["approvals"] },
    ]);
  });

  it("prints a readable summary", async () => {
    const result = await runCommand(infoCommand, ["--dir", "bot-examples/kitchen-sink"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^kitchen-sink {2}\(version [0-9a-f]{12}\)\nmodel: grok-4\.5 effort=high fast=true\n/);
    expect(result.stdout).toContain("update_ticket  dynamic, approval?");
    expect(result.stdout).toContain("orders  POST /v1/channels/orders/question");
    expect(result.stdout).toMatch(/morning-digest +0 8 \* \* 1-5 +markdown +next \d{4}-/);
    expect(result.stdout).toContain("diagnostics: none");
  });

  it("exits 1 and prints diagnostics when the project has errors or no bot folder", async () => {
    const broken = await runCommand(infoCommand, ["--dir", tempProject(BROKEN)]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain("diagnostics (1 error, 1 warning)");
    const empty = await runCommand(infoCommand, ["--dir", tempProject({ "README.md": "" }), "--json"]);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout)).toMatchObject({ ok: false, diagnostics: [{ code: "missing_bot_dir" }] });
  });

  it("says when --dir does not exist or is a file, once", async () => {
    const project = tempProject({ "bot/instructions.md": "Hi." });
    const missing = await runCommand(validateCommand, ["--dir", path.join(project, "nope")]);
    expect(missing.stdout.split("\n")[0]).toBe(`error    ${path.join(project, "nope")} does not exist`);
    expect(missing.stdout.match(/^error/gm)).toHaveLength(1);
    expect(missing.code).toBe(1);
    const file = await runCommand(infoCommand, ["--dir", path.join(project, "bot", "instructions.md"), "--json"]);
    expect(JSON.parse(file.stdout)).toMatchObject({ ok: false, diagnostics: [{ message: `${path.join(project, "bot", "instructions.md")} is a file, not a project folder` }] });
    expect(file.code).toBe(1);
  });
});
