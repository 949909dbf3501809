/**
 * project-habits, laid out the way public projects lay themselves out:
 * tsconfig `paths` aliases (`@/*`, `~lib/*`, in a commented tsconfig that
 * extends another) in tool imports, unit tests beside the definitions
 * (`*.test.ts`, `*.spec.ts`, `__tests__/`), `defineTool` from the package
 * root, a tool without `effect` reading `ctx.toolCallId` and
 * `ctx.session?.dryRun`, and a soft `t.judge`; through validate, info, run,
 * call, eval and serve.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { fieldProjectWithState, scriptedBdk, servedFieldProject, type FieldProject } from "./support/field.ts";

let project: FieldProject;

beforeAll(() => {
  project = fieldProjectWithState("project-habits");
});
afterAll(() => removeTempProjects());

describe("project-habits", () => {
  it("validate: aliases resolve and the unit tests beside the tools are not definitions", async () => {
    const validated = await project.bdk("validate");
    expect(validated.stdout).toBe(
      [
        "warning  evals/evals.config.ts  evals exist but evals/evals.config.ts does not; bdk eval uses its defaults",
        '         To choose the settings: export default defineEvalConfig({ maxConcurrency: 4 }) (import from "@cursor/bdk/evals").',
        "project-habits: valid (0 errors, 1 warning)",
        "",
      ].join("\n"),
    );
    expect(validated.code).toBe(0);
  });

  it("info --json: two tools (no service_info.test, no __tests__), the tool without effect a write by default", async () => {
    const info = JSON.parse((await project.bdk("info", ["--json"])).stdout) as {
      tools: { name: string; effect: string; effectDefault?: boolean }[];
      harnessTools: string[];
      diagnostics: { file: string; message: string }[];
    };
    expect(info.tools.map((tool) => [tool.name, tool.effect, tool.effectDefault ?? false])).toEqual([
      ["page_owner", "write", true],
      ["service_info", "read", false],
    ]);
    expect(info.harnessTools).toEqual(["read", "grep", "glob", "ls"]);
    expect(info.diagnostics.map((diagnostic) => diagnostic.file)).toEqual(["evals/evals.config.ts"]);
  });

  it("call: a tool importing through @/ and ~lib/ runs", async () => {
    const called = await project.bdk("call", ["service_info", "--input", '{"service":"search"}']);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: { service: "search", summary: "search (tier 2, owner raj)" } });
    expect(called.code).toBe(0);
    const positional = await project.bdk("call", ["service_info", '{"service":"search"}']);
    expect(positional.stderr).toBe(`bdk: unexpected argument "{"service":"search"}"; pass the input as --input '{"service":"search"}'. See \`bdk call --help\`.\n`);
    expect(positional.code).toBe(2);
    const unknown = await project.bdk("call", ["service_infos"]);
    expect(unknown.stderr).toBe('bdk call: no tool named "service_infos"; the agent\'s tools: page_owner, service_info (bdk info lists them)\n');
    expect(unknown.code).toBe(1);
  });

  it("run: the tool without effect executes outside evals and sees its call id and dryRun false", async () => {
    const ran = await project.bdk("run", ["--json", "--message", 'page_owner {"service": "search", "urgency": "low"}']);
    expect(ran.code, ran.stderr).toBe(0);
    const output = JSON.parse(ran.stdout) as { toolCalls: { name: string; output: unknown; isError: boolean }[] };
    expect(output.toolCalls).toEqual([
      expect.objectContaining({ name: "page_owner", isError: false, output: { paged: "raj", urgency: "low", callId: expect.stringMatching(/^call_/), dryRun: false } }),
    ]);
  });

  it("eval --tag smoke: passes on defaults; the soft judge is reported as skipped, not a failure; page_owner never runs", async () => {
    const evaluated = await project.bdk("eval", ["--tag", "smoke", "--json"]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const report = JSON.parse(evaluated.stdout) as {
      cases: { id: string; verdict: string; assertions: { name: string; passed: boolean; severity: string; skipped?: boolean; message: string }[] }[];
    };
    expect(report.cases.map((evalCase) => [evalCase.id, evalCase.verdict])).toEqual([["smoke", "passed"]]);
    const judged = report.cases[0].assertions.find((assertion) => assertion.name.startsWith("judge("))!;
    expect(judged).toMatchObject({ severity: "warning", skipped: true, message: expect.stringMatching(/^skipped: no judge model is configured/) });
    expect(report.cases[0].assertions.every((assertion) => assertion.passed || assertion.skipped)).toBe(true);
    expect(evaluated.stderr).toContain("no evals/evals.config.ts, so the defaults apply");

    // Named by its file, as a shell completes it: the same case.
    const text = await project.bdk("eval", ["evals/smoke.eval.ts"]);
    expect(text.stdout).toContain('    - (soft) judge("The reply names the owner of the service."): skipped: no judge model is configured');
    expect(text.stdout).toContain("1 passed, 0 failed, 0 errored, 0 skipped · 1 case in ");
    expect(text.code).toBe(0);
  });
});

describe("an execution: \"agent\" tool importing through an alias", () => {
  it("call: its script in the workspace resolves the alias as the loader does", async () => {
    const dir = tempProject({
      "package.json": '{ "name": "agent-alias", "type": "module" }',
      "tsconfig.json": '{\n  // as in project-habits\n  "compilerOptions": { "paths": { "~lib/*": ["./bot/lib/*"] } },\n}\n',
      "bot/instructions.md": "You look up tiers.",
      "bot/lib/tiers.ts": "export const TIERS: Record<string, number> = { billing: 1 };",
      "bot/tools/tier.ts": [
        'import { defineTool } from "@cursor/bdk/tools";',
        'import { z } from "zod";',
        'import { TIERS } from "~lib/tiers";',
        'export default defineTool({ description: "Tier of a service.", execution: "agent", effect: "read", inputSchema: z.object({ service: z.string() }), async execute({ service }) { return { tier: TIERS[service] ?? null }; } });',
      ].join("\n"),
    });
    const called = await scriptedBdk(["call", "tier", "--dir", dir, "--input", '{"service":"billing"}']);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: { tier: 1 } });
    expect(called.code).toBe(0);
  });
});

describe("project-habits served", () => {
  const served = servedFieldProject("project-habits", ["--no-playground"]);

  it("serve: GET /v1/tools lists the two tools; POST /v1/tools runs one that imports through aliases", async () => {
    const listed = await served.get<{ tools: { name: string }[] }>("/v1/tools");
    expect(listed.body.tools.map((tool) => tool.name)).toEqual(["page_owner", "service_info"]);
    const called = await served.post<{ ok: boolean; isError: boolean; result: unknown }>("/v1/tools/service_info", { input: { service: "billing" } });
    expect(called).toEqual({ status: 200, body: { ok: true, isError: false, result: { service: "billing", summary: "billing (tier 1, owner ana)" } } });
  }, 120_000);
});
