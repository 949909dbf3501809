import { rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../discover/diagnostics.ts";
import { loadAgent } from "./load-agent.ts";
import { copyProject, KIT_ROOT, removeTempProjects, tempProject, writeFiles } from "./testing/temp-project.ts";

afterAll(removeTempProjects);

const INSTRUCTIONS = { "bot/instructions.md": "You help." };

function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === "error");
}

function only(diagnostics: Diagnostic[], code: string): Diagnostic {
  const matching = diagnostics.filter((diagnostic) => diagnostic.code === code);
  expect(matching, JSON.stringify(diagnostics)).toHaveLength(1);
  return matching[0];
}

const ZOD_TOOL = (description: string) => `
import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({ description: ${JSON.stringify(description)}, inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q });
`;

describe("module resolution", () => {
  it("maps @cursor/bdk, @cursor/july, @grok/agent-sdk and bdk specifiers, bot/lib imports and the project's own node_modules", async () => {
    const dir = tempProject(
      {
        ...INSTRUCTIONS,
        "node_modules/greeting-lib/package.json": JSON.stringify({ name: "greeting-lib", type: "module", exports: "./index.js" }),
        "node_modules/greeting-lib/index.js": "export function greet(name) { return `hello ${name}`; }",
        "bot/lib/shout.ts": "export function shout(text: string): string { return text.toUpperCase(); }",
        "bot/tools/cursor.ts": `
          import { defineTool } from "@cursor/bdk/tools";
          import { prompt } from "@cursor/bdk";
          import { shout } from "../lib/shout.js";
          import { greet } from "greeting-lib";
          export default defineTool({ description: shout(prompt\`
            \${greet("cursor")}
          \`), execute: () => 1 });`,
        "bot/tools/july.ts": `
          import { defineTool } from "@cursor/july/tools";
          export default defineTool({ description: "july", execute: () => 1 });`,
        "bot/tools/grok.ts": `
          import { defineTool } from "@grok/agent-sdk";
          import { prompt } from "@grok/agent-sdk/prompt";
          export default defineTool({ description: prompt\`grok\`, execute: () => 1 });`,
        "bot/tools/ours.mts": `
          import { defineTool } from "bdk/tools";
          import { slackChannel } from "bdk/channels/slack";
          export default defineTool({ description: typeof slackChannel, execute: () => 1 });`,
        "bot/tools/plain.js": `export default { description: "plain js", execute() { return 2; } };`,
      },
      { nodeModules: false },
    );
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics).toEqual([]);
    expect(Object.fromEntries(agent!.tools.map((tool) => [tool.name, tool.description]))).toEqual({
      cursor: "HELLO CURSOR",
      grok: "grok",
      july: "july",
      ours: "function",
      plain: "plain js",
    });
  });

  it("gives a schedule importing ../channels/webhook.js the same object discovery loaded", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/channels/webhook.ts": `
        import { defineChannel, POST } from "@cursor/bdk/channels";
        export default defineChannel({ routes: [POST("/alert", async () => new Response(null, { status: 202 }))] });`,
      "bot/schedules/sweep.ts": `
        import { defineSchedule } from "@cursor/bdk/schedules";
        import webhook from "../channels/webhook.js";
        export default defineSchedule({ cron: "*/30 * * * *", run: async () => {}, channel: webhook });`,
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics).toEqual([]);
    const schedule = agent!.schedules.get("sweep") as unknown as { channel: unknown };
    expect(schedule.channel).toBe(agent!.channels.get("webhook"));
  });

  it("re-imports the project's files on the next load (hot reload) and changes the version", async () => {
    const dir = tempProject({ ...INSTRUCTIONS, "bot/tools/a.ts": ZOD_TOOL("first"), "bot/lib/x.ts": "export const x = 1;" });
    const first = await loadAgent(dir);
    expect(first.agent!.tools[0].description).toBe("first");
    const file = path.join(dir, "bot/tools/a.ts");
    const before = statSync(file);
    writeFileSync(file, ZOD_TOOL("second"));
    // The transpile cache is keyed by content: an edit that keeps the mtime (same second, a checkout) is seen.
    utimesSync(file, before.atime, before.mtime);
    const second = await loadAgent(dir);
    expect(second.agent!.tools[0].description).toBe("second");
    expect(second.agent!.version).not.toBe(first.agent!.version);
    expect(second.agent!.version).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe("import failures and wrong exports", () => {
  it("reports a syntax error with the file, the line and the loader's message, no stack", async () => {
    const dir = tempProject({ ...INSTRUCTIONS, "bot/tools/broken.ts": 'import { z } from "zod";\nexport default {\n  execute( => 1,\n};\n' });
    const { agent, diagnostics } = await loadAgent(dir);
    const failure = only(diagnostics, "import_failed");
    expect(failure).toMatchObject({ severity: "error", file: "bot/tools/broken.ts", line: 3 });
    expect(failure.message).toMatch(/^failed to load: /);
    expect(failure.message).not.toMatch(/\n|\bat .*:\d+:\d+\)/);
    expect(failure.message).not.toContain(dir);
    expect(agent!.tools).toEqual([]);
  });

  it("reports a missing module and a throw at import time", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/tools/missing.ts": 'import x from "no-such-package";\nexport default x;',
      "bot/tools/missing_lib.ts": '// the helpers\n\nimport x from "../lib/nope.js";\nexport default x;',
      "bot/tools/throws.ts": 'throw new Error("API_TOKEN is required");',
    });
    const { diagnostics } = await loadAgent(dir);
    const messages = Object.fromEntries(diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.message]));
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/tools/missing.ts")).toMatchObject({
      line: 1,
      message: "failed to load: Cannot find package 'no-such-package'",
      hint: "Install it in the project: npm install no-such-package.",
    });
    const missingLib = diagnostics.find((diagnostic) => diagnostic.file === "bot/tools/missing_lib.ts");
    // The line of the import itself, and no absolute "Require stack" paths.
    expect(missingLib).toMatchObject({
      line: 3,
      message: "failed to load: Cannot find module '../lib/nope.js'",
      hint: "No file ../lib/nope.js (.ts, .js, /index.ts) relative to bot/tools/: check the path and the file name's case.",
    });
    expect(messages["bot/tools/throws.ts"]).toBe("failed to load: API_TOKEN is required");
  });

  it("reports a named import the module does not export (project file or kit module) with file, line, name and module", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/format.ts": "export function formatGreting(name: string) { return `hi ${name}`; }\nexport type Greeting = string;\nexport interface Options { loud?: boolean }",
      "bot/lib/legacy.cjs": "module.exports = { legacy: 1 };",
      "bot/tools/greet.ts": [
        'import { defineTool } from "@cursor/bdk/tools";',
        'import { formatGreeting, type Greeting, Options } from "../lib/format.js";',
        'import { legacy } from "../lib/legacy.cjs";',
        'const options: Options = {};',
        'export default defineTool({ description: "Greet", effect: "read", execute: async (): Promise<Greeting> => formatGreeting(String(legacy) + String(options)) });',
      ].join("\n"),
      "bot/tools/kit.ts": 'import { defineTool, defineToool } from "@cursor/bdk/tools";\nexport default defineTool({ description: String(defineToool), execute: () => 1 });',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(errors(diagnostics).map(({ code, file, line, message }) => ({ code, file, line, message }))).toEqual([
      { code: "missing_export", file: "bot/tools/greet.ts", line: 2, message: 'imports "formatGreeting" from bot/lib/format.ts, which does not export it' },
      { code: "missing_export", file: "bot/tools/kit.ts", line: 1, message: 'imports "defineToool" from @cursor/bdk/tools, which does not export it' },
    ]);
    // The files still load (the name is undefined at run time): an unrelated tool can be called.
    expect(agent!.tools.map((tool) => tool.name)).toEqual(["greet", "kit"]);
  });

  it("a tsconfig.json that extends a package not installed costs its aliases, with a warning, not the load", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "tsconfig.json": '{ "extends": "@tsconfig/not-installed/tsconfig.json", "compilerOptions": { "paths": { "~lib/*": ["./bot/lib/*"] } } }',
      "bot/lib/answer.ts": "export const answer = 42;",
      "bot/tools/answer.ts": 'import { defineTool } from "@cursor/bdk/tools";\nimport { answer } from "~lib/answer";\nexport default defineTool({ description: "a", execute: () => answer });',
      "bot/tools/ping.ts": 'import { defineTool } from "@cursor/bdk/tools";\nexport default defineTool({ description: "ping", execute: () => "pong" });',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.map(({ severity, file, line, message }) => ({ severity, file, line, message }))).toEqual([
      {
        severity: "warning",
        file: "tsconfig.json",
        line: undefined,
        message: "cannot be read (File '@tsconfig/not-installed/tsconfig.json' not found.); its compilerOptions.paths aliases are not used",
      },
      { severity: "error", file: "bot/tools/answer.ts", line: 2, message: "failed to load: Cannot find module '~lib/answer'" },
    ]);
    expect(agent!.tools.map((tool) => tool.name)).toEqual(["ping"]);
  });

  it("evaluates a failing bot/lib module once when tools import it through a tsconfig paths alias", async () => {
    const tools = Object.fromEntries(
      ["a", "b", "c"].map((name) => [
        `bot/tools/${name}.ts`,
        `import { defineTool } from "@cursor/bdk/tools";\nimport { settings } from "~lib/settings";\nexport default defineTool({ description: "${name}", execute: () => settings });`,
      ]),
    );
    const dir = tempProject({
      ...INSTRUCTIONS,
      ...tools,
      "tsconfig.json": '{\n  // aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "~lib/*": ["bot/lib/*"] }, },\n}\n',
      "bot/lib/settings.ts": "(globalThis as { settingsLoads?: number }).settingsLoads = ((globalThis as { settingsLoads?: number }).settingsLoads ?? 0) + 1;\nthrow new Error('SETTINGS_URL is not set');\nexport const settings = 1;",
    });
    const counter = globalThis as { settingsLoads?: number };
    counter.settingsLoads = 0;
    const { diagnostics } = await loadAgent(dir);
    expect(counter.settingsLoads).toBe(1);
    expect(errors(diagnostics)).toEqual([
      expect.objectContaining({ file: "bot/lib/settings.ts", line: 2, message: "3 tools import bot/lib/settings.ts, which failed: SETTINGS_URL is not set" }),
    ]);
  });

  it("evaluates a bot/lib module that throws once and reports it once for all its importers", async () => {
    const tools = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        `bot/tools/catalog_${i}.ts`,
        `import { defineTool } from "@cursor/bdk/tools";\nimport { catalog } from "../lib/catalog.js";\nexport default defineTool({ description: "c${i}", execute: () => catalog });`,
      ]),
    );
    const dir = tempProject({
      ...INSTRUCTIONS,
      ...tools,
      "bot/lib/catalog.ts": "(globalThis as { catalogLoads?: number }).catalogLoads = ((globalThis as { catalogLoads?: number }).catalogLoads ?? 0) + 1;\nexport const catalog = 1;\nthrow new Error('CATALOG_URL is not set');",
      "bot/lib/indirect.ts": 'export { catalog as indirect } from "./catalog.js";',
      "bot/channels/feed.ts": 'import { defineChannel } from "@cursor/bdk/channels";\nimport { indirect } from "../lib/indirect.js";\nexport default defineChannel({ routes: [], description: String(indirect) });',
      "bot/tools/ping.ts": 'import { defineTool } from "@cursor/bdk/tools";\nexport default defineTool({ description: "ping", execute: () => "pong" });',
    });
    const counter = globalThis as { catalogLoads?: number };
    counter.catalogLoads = 0;
    const { agent, diagnostics } = await loadAgent(dir);
    expect(counter.catalogLoads).toBe(1);
    expect(errors(diagnostics)).toEqual([
      {
        severity: "error",
        code: "import_failed",
        file: "bot/lib/catalog.ts",
        line: 3,
        message: "6 files import bot/lib/catalog.ts, which failed: CATALOG_URL is not set",
        hint: "Imported by bot/tools/catalog_0.ts, bot/tools/catalog_1.ts, bot/tools/catalog_2.ts and 3 more; none of them loaded. Fix bot/lib/catalog.ts and they all load.",
      },
    ]);
    expect(agent!.tools.map((tool) => tool.name)).toEqual(["ping"]);
  });

  it("blames the importing file, not the library, when a library function it calls throws", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/make.ts": 'export function makeTool(limit: number) {\n  if (limit > 10) throw new Error("limit must be at most 10");\n  return { description: "made", execute: () => limit };\n}',
      "bot/tools/too_big.ts": 'import { makeTool } from "../lib/make.js";\nexport default makeTool(20);',
      "bot/tools/fine.ts": 'import { makeTool } from "../lib/make.js";\nexport default makeTool(5);',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(errors(diagnostics)).toEqual([
      { severity: "error", code: "import_failed", file: "bot/tools/too_big.ts", line: 2, message: "failed to load: limit must be at most 10" },
    ]);
    expect(agent!.tools.map((tool) => tool.name)).toEqual(["fine"]);
  });

  it("requires the matching define* default export, except plain-object tools", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/tools/skill_in_tools.ts": 'import { defineSkill } from "@cursor/bdk/skills";\nexport default defineSkill({ description: "d", markdown: "m" });',
      "bot/tools/no_default.ts": "export const tool = 1;",
      "bot/tools/plain.ts": 'export default { description: "Plain object tool", execute: async () => "ok" };',
      "bot/channels/c.ts": "export default { routes: [] };",
      "bot/reminders/r.ts": "export default function run() {}",
    });
    const { agent, diagnostics } = await loadAgent(dir);
    const wrong = diagnostics.filter((diagnostic) => diagnostic.code === "wrong_export");
    expect(wrong.map((diagnostic) => [diagnostic.file, diagnostic.message])).toEqual([
      ["bot/tools/no_default.ts", "must default-export defineTool(...)"],
      ["bot/tools/skill_in_tools.ts", "must default-export defineTool(...)"],
      ["bot/channels/c.ts", "must default-export defineChannel(...)"],
      ["bot/reminders/r.ts", "must default-export defineReminder(...)"],
    ]);
    expect(wrong[0].hint).toBe("It has no default export.");
    expect(wrong[1].hint).toBe("It exports a skill definition instead.");
    expect(agent!.tools.map((tool) => tool.name)).toEqual(["plain"]);
  });

  it("reports an inputSchema that is neither zod nor JSON Schema on the tool's file", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/tools/bad_schema.ts": 'import { defineTool } from "@cursor/bdk/tools";\nexport default defineTool({ description: "d", inputSchema: "string" as never, execute: () => 1 });',
    });
    const { diagnostics } = await loadAgent(dir);
    expect(only(diagnostics, "invalid_input_schema")).toMatchObject({
      severity: "error",
      file: "bot/tools/bad_schema.ts",
      message: "inputSchema is neither a zod schema nor a JSON Schema object",
    });
  });
});

describe("capabilities", () => {
  it("loads agent config, instructions.ts as a string or defineInstructions, and an instructions/ folder", async () => {
    const stringForm = await loadAgent(tempProject({ "bot/instructions.ts": 'export default `Team ${"ops"}`;' }));
    expect(stringForm.agent!.instructions).toBe("Team ops");
    const defined = await loadAgent(
      tempProject({
        "bot/instructions.ts": 'import { defineInstructions } from "@cursor/bdk";\nexport default defineInstructions({ markdown: "Defined." });',
        "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ model: "openai/gpt-5", tools: ["read"] });',
      }),
    );
    expect(defined.diagnostics).toEqual([]);
    expect(defined.agent!.instructions).toBe("Defined.");
    expect(defined.agent!.config).toEqual({ model: "openai/gpt-5", tools: ["read"] });
    const folder = await loadAgent(tempProject({ "bot/instructions/02-rules.md": "Rules.\n", "bot/instructions/01-identity.md": "# Me\n" }));
    expect(folder.agent!.instructions).toBe("# Me\n\nRules.");
    const badModel = await loadAgent(tempProject({ ...INSTRUCTIONS, "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ model: 42 as never });' }));
    expect(only(badModel.diagnostics, "invalid_definition").file).toBe("bot/agent.ts");
  });

  it("loads skills in all three forms with the description rules", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/skills/first-line.md": "# Write release notes\n\nSteps...",
      "bot/skills/fronted.md": "---\ndescription: From frontmatter\n---\nBody",
      "bot/skills/review/SKILL.md": "---\ndescription: Review a PR\n---\n# Review\nSee checklist.md",
      "bot/skills/review/checklist.md": "- [ ] tests",
      "bot/skills/review/refs/style.md": "style",
      "bot/skills/undescribed/SKILL.md": "# No description",
      "bot/skills/coded.ts": 'import { defineSkill } from "@cursor/bdk/skills";\nexport default defineSkill({ description: "Coded", markdown: "# Coded", files: { "a.txt": "A" } });',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(only(diagnostics, "missing_description")).toMatchObject({ severity: "error", file: "bot/skills/undescribed/SKILL.md" });
    const skills = Object.fromEntries(agent!.skills.map((skill) => [skill.name, skill]));
    expect(skills["first-line"].description).toBe("Write release notes");
    expect(skills.fronted).toMatchObject({ description: "From frontmatter", markdown: "Body" });
    expect(skills.review).toMatchObject({ description: "Review a PR", files: { "checklist.md": "- [ ] tests", "refs/style.md": "style" } });
    expect(skills.coded).toMatchObject({ description: "Coded", markdown: "# Coded", files: { "a.txt": "A" }, file: "bot/skills/coded.ts" });
  });

  it("loads subagents and requires their description", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/subagents/researcher/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ description: "Researches", model: "grok-4.5" });',
      "bot/subagents/researcher/instructions.md": "Research carefully.",
      "bot/subagents/nameless/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ instructions: "x" });',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(only(diagnostics, "missing_description").file).toBe("bot/subagents/nameless/agent.ts");
    expect(agent!.subagents).toEqual([
      {
        id: "researcher",
        description: "Researches",
        instructions: "Research carefully.",
        config: { description: "Researches", model: "grok-4.5" },
        file: "bot/subagents/researcher/agent.ts",
        instructionsFile: "bot/subagents/researcher/instructions.md",
      },
    ]);
  });

  it("loads connections, warning about unset ${NAME} templates", async () => {
    delete process.env.BDK_TEST_UNSET_TOKEN;
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/mcp-connections/linear.ts": `import { defineConnection } from "@cursor/bdk/connections";
        export default defineConnection({ url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer \${BDK_TEST_UNSET_TOKEN}" } });`,
      "bot/host-connections/files.ts": `import { defineConnection } from "@cursor/bdk/connections";
        export default defineConnection({ command: "node", args: ["server.js"], env: { HOME: "\${HOME}" } });`,
      "bot/mcp-connections/both.ts": `import { defineConnection } from "@cursor/bdk/connections";
        export default defineConnection({ url: "https://x", command: "y" } as never);`,
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(only(diagnostics, "unset_env")).toMatchObject({ severity: "warning", file: "bot/mcp-connections/linear.ts" });
    expect(only(diagnostics, "unset_env").message).toContain("${BDK_TEST_UNSET_TOKEN}");
    expect(only(diagnostics, "invalid_definition")).toMatchObject({ severity: "error", file: "bot/mcp-connections/both.ts" });
    expect([...agent!.connections.values()].map(({ name, scope, kind }) => ({ name, scope, kind }))).toEqual([
      { name: "linear", scope: "model", kind: "remote" },
      { name: "files", scope: "host", kind: "stdio" },
    ]);
  });

  it("loads markdown and handler schedules and rejects bad ones", async () => {
    const schedule = (body: string) => `import { defineSchedule } from "@cursor/bdk/schedules";\nexport default defineSchedule(${body} as never);`;
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/schedules/daily.md": '---\ncron: "0 9 * * 1-5"\n---\n\nSummarize incidents.\n',
      "bot/schedules/no-cron.md": "Just a prompt.",
      "bot/schedules/bad-cron.md": '---\ncron: "0 25 * * *"\n---\nx',
      "bot/schedules/handler.ts": schedule('{ cron: "*/5 * * * *", run: async () => {} }'),
      "bot/schedules/both.ts": schedule('{ cron: "* * * * *", markdown: "x", run: async () => {} }'),
      "bot/schedules/neither.ts": schedule('{ cron: "* * * * *" }'),
      "bot/schedules/six-fields.ts": schedule('{ cron: "0 0 9 * * *", markdown: "x" }'),
    });
    const { agent, diagnostics } = await loadAgent(dir);
    const byFile = Object.fromEntries(diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.code]));
    expect(byFile).toEqual({
      "bot/schedules/no-cron.md": "invalid_cron",
      "bot/schedules/bad-cron.md": "invalid_cron",
      "bot/schedules/both.ts": "invalid_definition",
      "bot/schedules/neither.ts": "invalid_definition",
      "bot/schedules/six-fields.ts": "invalid_cron",
    });
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/schedules/both.ts")?.message).toContain("has both");
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/schedules/neither.ts")?.message).toContain("has neither");
    expect([...agent!.schedules.keys()]).toEqual(["daily", "handler"]);
    expect(agent!.schedules.get("daily")).toMatchObject({ cron: "0 9 * * 1-5", markdown: "Summarize incidents." });
  });

  it("loads hooks, reminders, artifacts, result and channels, checking their shapes", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/hooks/audit/usage.ts": 'import { defineHook } from "@cursor/bdk/hooks";\nexport default defineHook({ events: { "turn.completed"() {}, "turn.exploded"() {} } as never });',
      "bot/hooks/memory.ts": 'import { memoryHook } from "@cursor/bdk/memory";\nexport default memoryHook({ maxNotes: 5 });',
      "bot/reminders/ci_recheck.ts": 'import { defineReminder } from "@cursor/bdk/reminders";\nexport default defineReminder({ run: async () => ({ action: "skip" }) });',
      "bot/artifacts.ts": 'import { defineArtifacts } from "@cursor/bdk/artifacts";\nexport default defineArtifacts({ kinds: { review: { description: "A review" } } });',
      "bot/result.ts": 'import { defineResult } from "@cursor/bdk/result";\nexport default defineResult({ commit() {} });',
      "bot/channels/bad.ts": 'import { defineChannel, POST } from "@cursor/bdk/channels";\nexport default defineChannel({ routes: [POST("review", async () => new Response())] });',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.file, diagnostic.message])).toEqual([
      ["error", "bot/channels/bad.ts", 'route path "review" must start with "/"'],
      ["warning", "bot/hooks/audit/usage.ts", 'hook subscribes to unknown event type "turn.exploded"; it never fires'],
    ]);
    expect([...agent!.hooks.keys()]).toEqual(["audit/usage", "memory"]);
    expect([...agent!.reminders.keys()]).toEqual(["ci_recheck"]);
    expect(agent!.artifacts?.kinds.review.description).toBe("A review");
    expect(typeof agent!.result?.commit).toBe("function");
  });

  it("records the sandbox workspace folder", async () => {
    const dir = tempProject({ ...INSTRUCTIONS, "bot/sandbox/workspace/README.md": "seed" });
    expect((await loadAgent(dir)).agent!.sandboxDir).toBe(path.join(dir, "bot/sandbox/workspace"));
    expect((await loadAgent(tempProject(INSTRUCTIONS))).agent!.sandboxDir).toBeUndefined();
  });
});

describe("extensions", () => {
  const CI_EXTENSION = `
    import { defineExtension } from "@cursor/bdk/extensions";
    import { defineTool } from "@cursor/bdk/tools";
    import { z } from "zod";
    export const ci = defineExtension({
      name: "ci",
      configSchema: z.object({ repo: z.string() }),
      instructions: (config) => "Check CI of " + config.repo + " with ci__status.",
      tools: (config) => ({ status: defineTool({ description: "CI status of " + config.repo, execute: () => "green" }) }),
      skills: { triage: { description: "Triage a red build", markdown: "# Triage" } },
      schedules: { nightly: { cron: "0 2 * * *", markdown: "Check the nightly build." } },
    });`;

  it("mounts contributions under <ns>__<name> and appends instructions", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/ci.ts": CI_EXTENSION,
      "bot/extensions/build.ts": 'import { ci } from "../lib/ci.js";\nexport default ci({ repo: "acme/checkout" });',
      "bot/extensions/cloud.ts": `import { cursorCloudAgents } from "@cursor/bdk/extensions/cursor-cloud-agents";
        export default cursorCloudAgents({ cloud: { repos: [{ url: "https://github.com/acme/checkout", startingRef: "main" }], autoCreatePR: true } });`,
      "bot/extensions/jev.ts": 'import { decide } from "@cursor/bdk/extensions/jev";\nexport default decide;',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics).toEqual([]);
    expect(agent!.tools.map((tool) => [tool.name, tool.source])).toEqual([
      ["build__status", "extension"],
      ["cloud__launch", "extension"],
      ["cloud__get", "extension"],
      ["cloud__list", "extension"],
      ["cloud__dump", "extension"],
      ["cloud__reply", "extension"],
      ["cloud__cancel", "extension"],
      ["jev__decide", "extension"],
    ]);
    expect(agent!.skills.map((skill) => skill.name)).toEqual(["build__triage", "cloud__handoff"]);
    expect([...agent!.schedules.keys()]).toEqual(["build__nightly"]);
    expect(agent!.instructions).toBe("You help.\n\nCheck CI of acme/checkout with ci__status.");
    expect(agent!.extensions?.map((extension) => [extension.namespace, extension.extension, extension.contributes.tools.length])).toEqual([
      ["build", "ci", 1],
      ["cloud", "cursor-cloud-agents", 6],
      ["jev", "jev", 1],
    ]);
  });

  it("reports a bad config and a name clash with an authored file", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/ci.ts": CI_EXTENSION,
      "bot/extensions/broken.ts": 'import { ci } from "../lib/ci.js";\nexport default ci({ repo: 42 } as never);',
      "bot/extensions/build.ts": 'import { ci } from "../lib/ci.js";\nexport default ci({ repo: "acme/checkout" });',
      "bot/tools/build__status.ts": ZOD_TOOL("authored"),
      "bot/extensions/nothing.ts": "export default {};",
    });
    const { diagnostics } = await loadAgent(dir);
    expect(only(diagnostics, "invalid_extension")).toMatchObject({ severity: "error", file: "bot/extensions/broken.ts" });
    expect(only(diagnostics, "invalid_extension").message).toMatch(/^invalid config for extension "ci": repo:/);
    expect(only(diagnostics, "duplicate_name")).toMatchObject({ severity: "error", file: "bot/extensions/build.ts" });
    expect(only(diagnostics, "duplicate_name").message).toContain("bot/tools/build__status.ts");
    expect(only(diagnostics, "wrong_export").file).toBe("bot/extensions/nothing.ts");
  });

  it("reports contributions of an unexpected shape instead of throwing", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/extensions/odd.ts": `import { defineExtension } from "@cursor/bdk/extensions";
        export default defineExtension({ name: "odd", skills: { broken: null } as never, subagents: { helper: { instructions: "x" } } })();`,
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["invalid_definition", "bot/extensions/odd.ts"],
      ["missing_description", "bot/extensions/odd.ts"],
    ]);
    expect(agent!.extensions).toHaveLength(1);
  });
});

describe("evals", () => {
  const CONFIG = { "evals/evals.config.ts": 'import { defineEvalConfig } from "@cursor/bdk/evals";\nexport default defineEvalConfig({ maxConcurrency: 2 });' };

  it("expands tests, cases and arrays into ids", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      ...CONFIG,
      "evals/readiness.eval.ts": 'import { defineEval } from "@cursor/bdk/evals";\nexport default defineEval({ tags: ["smoke"], async test() {} });',
      "evals/orders/index.eval.ts": `import { defineEval } from "@cursor/bdk/evals";
        export default defineEval({ cases: [{ id: "known", test() {} }, { id: "unknown", test() {} }] });`,
      "evals/batch.eval.ts": `import { defineEval } from "@cursor/bdk/evals";
        export default [defineEval({ test() {} }), defineEval({ iterations: 3, test() {} })];`,
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics).toEqual([]);
    expect(agent!.evals?.config).toEqual({ maxConcurrency: 2 });
    expect(agent!.evals?.cases.map((evalCase) => [evalCase.id, evalCase.iterations, evalCase.tags])).toEqual([
      ["batch/0000", 1, []],
      ["batch/0001", 3, []],
      ["orders/known", 1, []],
      ["orders/unknown", 1, []],
      ["readiness", 1, ["smoke"]],
    ]);
  });

  it("rejects test together with cases, duplicate case ids and a wrong export", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      ...CONFIG,
      "evals/both.eval.ts": 'import { defineEval } from "@cursor/bdk/evals";\nexport default defineEval({ test() {}, cases: [] } as never);',
      "evals/dupes.eval.ts": `import { defineEval } from "@cursor/bdk/evals";
        export default defineEval({ cases: [{ id: "a", test() {} }, { id: "a", test() {} }] });`,
      "evals/plain.eval.ts": "export default { test() {} };",
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["invalid_eval", "evals/both.eval.ts"],
      ["duplicate_eval_case", "evals/dupes.eval.ts"],
      ["wrong_export", "evals/plain.eval.ts"],
    ]);
    expect(agent!.evals?.cases.map((evalCase) => evalCase.id)).toEqual(["dupes/a"]);
  });
});

describe("a broken copy of pr-approver", () => {
  it("yields an error naming each broken file", async () => {
    const dir = copyProject(path.join(KIT_ROOT, "bot-examples/pr-approver"));
    rmSync(path.join(dir, "bot/instructions.md"));
    writeFileSync(path.join(dir, "bot/tools/inspect_pr.ts"), 'import { defineTool } from "bdk/tools";\nexport default defineTool({\n  description: "x",\n  execute( => 1,\n});\n');
    writeFileSync(path.join(dir, "bot/tools/a.ts"), ZOD_TOOL("a"));
    writeFileSync(path.join(dir, "bot/tools/a.js"), 'export default { description: "a", execute() {} };');
    writeFiles(dir, { "bot/schedules/nightly.md": '---\ncron: "every night"\n---\nCheck open PRs.' });

    const { diagnostics } = await loadAgent(dir);
    expect(errors(diagnostics).map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["duplicate_name", "bot/tools/a.ts"],
      ["missing_instructions", "bot/instructions.md"],
      ["import_failed", "bot/tools/inspect_pr.ts"],
      ["invalid_cron", "bot/schedules/nightly.md"],
    ]);
  });
});
