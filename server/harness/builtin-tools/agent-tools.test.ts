import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { zodTool } from "../../../test/support/tools.ts";
import type { LoadedTool } from "../../load/types.ts";
import { executeTool } from "../execute-tool.ts";
import { prepareWorkspace } from "../workspace.ts";
import { agentToolScriptPath, authoringAliases } from "./agent-tool-script.ts";
import { runAgentTool } from "./run-agent-tool.ts";
import { shellTool } from "./shell.ts";
import { tempDir, toolContext } from "./test-context.ts";

const KIT_NODE_MODULES = path.resolve(import.meta.dirname, "../../../node_modules");

/* A project whose bot/tools/*.ts import the kit and zod, and a workspace prepared from it. */
let temp: ReturnType<typeof tempDir>;
let workspace: string;

const TOOL_SOURCES: Record<string, string> = {
  probe: `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { writeFileSync } from "node:fs";
export default defineTool({
  description: "Reports what it can see.",
  execution: "agent",
  inputSchema: z.object({ word: z.string(), times: z.number().int().default(2) }),
  async execute({ word, times }, ctx) {
    console.log("noise that must not break the result line");
    writeFileSync("probe-ran.txt", word);
    let host;
    try { ctx.host.kv; } catch (error) { host = error.message; }
    return {
      echoed: word.repeat(times),
      secret: process.env.SECRET_X ?? null,
      session: ctx.session.id,
      cwd: ctx.workspaceDir,
      host,
    };
  },
});
`,
  fails: `import { defineTool } from "@grok/agent-sdk";
export default defineTool({ description: "Always fails.", execution: "agent", execute() { throw new Error("tool broke"); } });
`,
  hangs: `export default { description: "Never finishes.", execute: () => new Promise(() => setInterval(() => {}, 1000)) };
`,
};

function agentTool(name: string): LoadedTool {
  return zodTool(name, z.object({}).passthrough(), () => undefined, { execution: "agent", file: `bot/tools/${name}.ts`, description: `${name} tool` });
}

beforeAll(async () => {
  temp = tempDir("bdk-agent-tools-");
  const project = path.join(temp.dir, "project");
  mkdirSync(path.join(project, "bot", "tools"), { recursive: true });
  symlinkSync(KIT_NODE_MODULES, path.join(project, "node_modules"));
  for (const [name, source] of Object.entries(TOOL_SOURCES)) writeFileSync(path.join(project, "bot", "tools", `${name}.ts`), source);
  workspace = path.join(temp.dir, "workspace");
  await prepareWorkspace({ dir: workspace, rootDir: project, agentName: "probe-bot", skills: [], agentTools: Object.keys(TOOL_SOURCES).map(agentTool) });
});
afterAll(() => temp.remove());

const run = (name: string, input: unknown, options: { timeoutMs?: number; signal?: AbortSignal; sandbox?: boolean } = {}) =>
  runAgentTool({
    workspaceDir: workspace,
    name,
    input,
    timeoutMs: options.timeoutMs ?? 20_000,
    signal: options.signal ?? new AbortController().signal,
    sessionId: "ses_agent",
    sandbox: options.sandbox,
    projectDir: path.join(temp.dir, "project"),
  });

describe("agent-executed tools", () => {
  it("every authoring alias points at an existing kit file", () => {
    const aliases = authoringAliases();
    expect(aliases["@cursor/bdk/tools"]).toMatch(/server\/authoring\/tools\.ts$/);
    expect(aliases["@grok/agent-sdk"]).toMatch(/server\/authoring\/index\.ts$/);
    for (const file of Object.values(aliases)) expect(existsSync(file), file).toBe(true);
  });

  it("runs the tool in the workspace with validated input, without server secrets or ctx.host", async () => {
    process.env.SECRET_X = "hunter2";
    try {
      const outcome = await run("probe", { word: "ab" });
      expect(outcome).toEqual({
        isError: false,
        output: {
          echoed: "abab",
          secret: null,
          session: "ses_agent",
          cwd: workspace,
          host: expect.stringMatching(/ctx\.host is not available to execution: "agent" tools/),
        },
      });
      expect(readFileSync(path.join(workspace, "probe-ran.txt"), "utf8")).toBe("ab");
    } finally {
      delete process.env.SECRET_X;
    }
  });

  it("runs in the sandbox (a private /tmp) with a project that lives below /tmp", async () => {
    expect(temp.dir.startsWith("/tmp/")).toBe(true);
    expect(await run("probe", { word: "sb" }, { sandbox: true })).toMatchObject({ isError: false, output: { echoed: "sbsb", cwd: workspace } });
    expect(readFileSync(path.join(workspace, "probe-ran.txt"), "utf8")).toBe("sb");
  });

  it("reports invalid input and a throwing tool as error results", async () => {
    expect(await run("probe", { word: 5 })).toEqual({ isError: true, output: expect.stringMatching(/^Invalid input for tool probe: word: /) });
    expect(await run("fails", {})).toEqual({ isError: true, output: "tool broke" });
    expect(await run("missing", {})).toEqual({ isError: true, output: expect.stringMatching(/has no script in the workspace/) });
  });

  it("kills a tool that outlives its time limit, or when aborted", async () => {
    expect(await run("hangs", {}, { timeoutMs: 1500 })).toEqual({ isError: true, output: 'agent tool "hangs" ran longer than 1500 ms and was killed' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    expect(await run("hangs", {}, { signal: controller.signal })).toEqual({ isError: true, output: 'agent tool "hangs" was stopped because the turn was cancelled' });
  });

  it("the model can run the script itself from the shell, with the JSON input as an argument", async () => {
    const outcome = await executeTool(shellTool(), { command: `node ${agentToolScriptPath("probe")} '{"word":"z","times":3}'` }, toolContext(workspace));
    const { exitCode, stdout } = outcome.output as { exitCode: number; stdout: string };
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, result: { echoed: "zzz", session: "ses_test" } });
  });
});
