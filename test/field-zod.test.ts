/**
 * Projects that bring their own zod (3.25 with `zod` and `zod/v4`, and 4.0.x),
 * installed from the npm registry by `scripts/setup.sh --for-tests` from each
 * fixture's lockfile: every `.describe()` text reaches the model, and zod
 * validates the input, through validate, info, run, call, eval and serve.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { startServer, type RunningServer } from "./support/bdk-server.ts";
import { fieldProjectWithState, installedZod, type FieldProject } from "./support/field.ts";
import { startOpenAICompatibleServer } from "./support/openai-compatible-server.ts";

afterAll(removeTempProjects);

const DESCRIPTIONS: Record<string, Record<string, string>> = {
  file_issue: { title: "One-line summary of the problem", severity: "How badly readers are misled" },
  search_docs: { query: "Words to look for in the docs", limit: "How many pages to return (at most 10)" },
};

type Schema = { properties?: Record<string, { description?: string }> };

function descriptions(schema: Schema): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([field, property]) => [field, property.description]));
}

const FIXTURES = [
  { name: "zod3", zod: "3.25.76", tooShort: "query: String must contain at least 2 character(s)" },
  { name: "zod4-0", zod: "4.0.17", tooShort: "query: Too small: expected string to have >=2 characters" },
];

describe.each(FIXTURES)("$name: a project with its own zod $zod", ({ name, zod, tooShort }) => {
  let project: FieldProject;
  let server: RunningServer | undefined;

  beforeAll(() => {
    expect(installedZod(name), `test/fixtures/field/${name} needs its own node_modules: run scripts/setup.sh --for-tests`).toBe(zod);
    project = fieldProjectWithState(name);
  });
  afterAll(async () => server?.stop());

  it("validate: valid", async () => {
    const validated = await project.bdk("validate");
    expect(validated.stdout).toContain(`${name}-docs: valid (0 errors, 0 warnings)`);
    expect(validated.code).toBe(0);
  });

  it("info --json: each tool's JSON Schema keeps every .describe() text; a tool without effect is write (default)", async () => {
    const info = await project.bdk("info", ["--json"]);
    expect(info.code, info.stderr).toBe(0);
    const tools = (JSON.parse(info.stdout) as { tools: { name: string; effect: string; effectDefault?: boolean; inputSchema: Schema }[] }).tools;
    expect(Object.fromEntries(tools.map((tool) => [tool.name, descriptions(tool.inputSchema)]))).toEqual(DESCRIPTIONS);
    expect(tools.map((tool) => [tool.name, tool.effect, tool.effectDefault ?? false])).toEqual([
      ["file_issue", "write", true],
      ["search_docs", "read", false],
    ]);
  });

  it("run: the model's request carries the descriptions (a real OpenAI-compatible server records it)", async () => {
    const provider = await startOpenAICompatibleServer([{ text: "Ask me about the docs." }]);
    try {
      const run = await project.bdk("run", ["--model", "compat/docs-model", "--message", "What can you do?", "--text"], { BDK_OPENAI_BASE_URL: provider.baseURL });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("Ask me about the docs.");
      const sent = provider.requests[0].body as { tools: { function: { name: string; parameters: Schema } }[] };
      const authored = sent.tools.filter((tool) => tool.function.name in DESCRIPTIONS);
      expect(Object.fromEntries(authored.map((tool) => [tool.function.name, descriptions(tool.function.parameters)]))).toEqual(DESCRIPTIONS);
    } finally {
      await provider.close();
    }
  });

  it("call: zod checks the input and names the field; valid input runs", async () => {
    const refused = await project.bdk("call", ["search_docs", "--input", '{"query":"x"}']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ isError: true, result: `Invalid input for tool search_docs: ${tooShort}` });
    const called = await project.bdk("call", ["file_issue", "--input", '{"title":"Webhook page is wrong","severity":"high"}']);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: { filed: true, title: "Webhook page is wrong", severity: "high" } });
  });

  it("eval: the smoke eval passes", async () => {
    const evaluated = await project.bdk("eval", ["--tag", "smoke"]);
    expect(evaluated.stdout).toMatch(/1 passed, 0 failed/);
    expect(evaluated.code).toBe(0);
  });

  it("serve: GET /v1/tools gives the schemas with their descriptions", async () => {
    server = await startServer({ dir: project.dir, args: ["--no-playground"] });
    const listed = (await (await fetch(`${server.url}/v1/tools`)).json()) as { tools: { name: string; inputSchema: Schema }[] };
    expect(Object.fromEntries(listed.tools.map((tool) => [tool.name, descriptions(tool.inputSchema)]))).toEqual(DESCRIPTIONS);
  }, 120_000);
});
