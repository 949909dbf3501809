/**
 * What `validate` must report instead of letting the agent misbehave later:
 * a tool named like a built-in, an unknown model id, a concurrency limit that
 * queues every turn forever, a cron that never fires, config fields of the
 * wrong type, unusable instructions, and throws of values that are not Errors.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../server/discover/diagnostics.ts";
import { openAgent } from "../server/host/open-agent.ts";
import { HARNESS_TOOL_NAMES } from "../server/load/builtin-names.ts";
import { MAX_INSTRUCTIONS_BYTES } from "../server/load/instructions.ts";
import { loadAgent } from "../server/load/load-agent.ts";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { builtinTools } from "../server/harness/builtin-tools/index.ts";
import { createReminderTools } from "../server/reminders/reminder-tools.ts";

afterAll(removeTempProjects);

const INSTRUCTIONS = { "bot/instructions.md": "You help." };
const agentFile = (config: string) => ({ "bot/agent.ts": `import { defineAgent } from "@cursor/bdk";\nexport default defineAgent(${config});\n` });

async function diagnosticsOf(files: Record<string, string>): Promise<Pick<Diagnostic, "severity" | "code" | "message" | "file">[]> {
  const { diagnostics } = await loadAgent(tempProject(files));
  return diagnostics.map(({ severity, code, message, file }) => ({ severity, code, message, file }));
}

describe("a tool named like a built-in", () => {
  const files = {
    ...INSTRUCTIONS,
    "bot/tools/read.ts": 'export default { description: "Reads an order.", async execute() { return { from: "the project" }; } };',
  };

  it("is a warning on its file", async () => {
    expect(await diagnosticsOf(files)).toEqual([
      {
        severity: "warning",
        code: "builtin_tool_shadowed",
        message: 'tool "read" has the name of a built-in tool; the model gets yours instead of the built-in read',
        file: "bot/tools/read.ts",
      },
    ]);
  });

  it("and the model's call runs the project's tool, not the built-in", async () => {
    const opened = await openAgent(tempProject(files), { env: { BDK_MODEL: "scripted" }, stateRoot: mkdtempSync(path.join(os.tmpdir(), "bdk-shadow-")) });
    try {
      const me = { type: "user" as const, id: "local" };
      const handle = await opened.runtime.startSession({ message: 'read {"path":"notes.txt"}', principal: me });
      await handle.done;
      const result = (await opened.runtime.reader.events(handle.sessionId, me)).find((event) => event.type === "action.result");
      expect(result?.data).toMatchObject({ name: "read", isError: false, output: { from: "the project" } });
    } finally {
      await opened.close();
    }
  });

  it("covers every tool the harness adds", () => {
    const harness = [...builtinTools({ skills: [{ name: "s", description: "d", markdown: "m", files: {}, file: "f" }] }), ...createReminderTools()].map((tool) => tool.name);
    expect([...HARNESS_TOOL_NAMES].sort()).toEqual([...harness, "task", "tag_artifact"].sort());
  });
});

describe("agent config", () => {
  it("warns about a model id no provider serves, naming the field", async () => {
    expect(await diagnosticsOf({ ...INSTRUCTIONS, ...agentFile('{ model: "gpt-5", modelFallbacks: ["grok-4.5", { id: "claude-sonnet" }] }') })).toEqual([
      { severity: "warning", code: "unknown_model", message: 'model "gpt-5" is not a model this kit can call; turns fail unless --model or BDK_MODEL picks another', file: "bot/agent.ts" },
      {
        severity: "warning",
        code: "unknown_model",
        message: 'modelFallbacks[1] "claude-sonnet" is not a model this kit can call; turns fail unless --model or BDK_MODEL picks another',
        file: "bot/agent.ts",
      },
    ]);
  });

  it("refuses maxRunningTurns below 1, with which every turn would queue forever", async () => {
    for (const [value, problem] of [
      ["0", "must be at least 1 (with 0 no turn could ever start: every one would queue forever)"],
      ["1.5", "must be a whole number"],
    ]) {
      expect(await diagnosticsOf({ ...INSTRUCTIONS, ...agentFile(`{ concurrency: { maxRunningTurns: ${value} } }`) })).toEqual([
        { severity: "error", code: "invalid_definition", message: `concurrency.maxRunningTurns: ${problem}`, file: "bot/agent.ts" },
      ]);
    }
  });

  it("names fields of the wrong type, and warns about unknown nested keys", async () => {
    const wrongType = async (config: string) => (await diagnosticsOf({ ...INSTRUCTIONS, ...agentFile(config) }))[0]?.message;
    expect(await wrongType('{ tools: "read" }')).toBe('tools: must be a list of built-in tool names, e.g. ["read", "grep"]');
    expect(await wrongType('{ local: { sandbox: "yes" } }')).toMatch(/^local\.sandbox: /);
    expect(await wrongType('{ hosting: { secretNames: "GITHUB_TOKEN" } }')).toBe("hosting.secretNames: must be a list of strings");
    expect(await wrongType("{ persistent: 1 }")).toMatch(/^persistent: /);
    expect(await diagnosticsOf({ ...INSTRUCTIONS, ...agentFile('{ local: { sandbx: true }, builtinTools: { reminders: true, calendar: true } }') })).toEqual([
      { severity: "warning", code: "unknown_config_key", message: '"local.sandbx" is not an agent config key; it is ignored', file: "bot/agent.ts" },
      { severity: "warning", code: "unknown_config_key", message: '"builtinTools.calendar" is not an agent config key; it is ignored', file: "bot/agent.ts" },
    ]);
  });

  it("warns about names in the tools allowlist that are no built-in tool of this kit", async () => {
    const { diagnostics } = await loadAgent(tempProject({ ...INSTRUCTIONS, ...agentFile('{ tools: ["read", "bash", "grep", "web_search", "task"] }') }));
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        code: "unknown_builtin_tool",
        message: 'tools lists "bash", "web_search", which are not built-in tools of this kit; ignored',
        file: "bot/agent.ts",
        hint: "The allowlist picks among the built-ins: read, write, edit, ls, glob, grep, shell, load_skill, task (shell runs commands). Your own tools and MCP tools are always available.",
      },
    ]);
  });
});

describe("schedules", () => {
  it("refuse a cron that can never fire", async () => {
    expect(await diagnosticsOf({ ...INSTRUCTIONS, "bot/schedules/leap.md": '---\ncron: "0 0 31 2 *"\n---\nSummarise February.' })).toEqual([
      { severity: "error", code: "invalid_cron", message: 'cron "0 0 31 2 *" never fires: no date matches it', file: "bot/schedules/leap.md" },
    ]);
  });
});

describe("instructions", () => {
  it("refuse a file larger than the limit without reading it, and binary or non-UTF-8 content", async () => {
    const big = await diagnosticsOf({ "bot/instructions.md": "x".repeat(MAX_INSTRUCTIONS_BYTES + 1) });
    expect(big).toEqual([
      { severity: "error", code: "invalid_instructions", message: "the instructions are 2.0 MiB; at most 2.0 MiB fit the prompt of every turn", file: "bot/instructions.md" },
    ]);
    const notText = "is not text (it is binary or not UTF-8); instructions are Markdown";
    expect(await diagnosticsOf({ "bot/instructions.md": "\x89PNG\r\n\x1a\n\0\0\0\rIHDR" })).toEqual([
      { severity: "error", code: "invalid_instructions", message: notText, file: "bot/instructions.md" },
    ]);
    const latin1 = tempProject({ "bot/instructions.md": "" });
    writeFileSync(path.join(latin1, "bot/instructions.md"), Buffer.from([0x43, 0x61, 0x66, 0xe9]));
    const { diagnostics } = await loadAgent(latin1);
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([notText]);
  });

  it("refuse a folder whose parts add up past the limit", async () => {
    const half = "y".repeat(MAX_INSTRUCTIONS_BYTES / 2 + 1);
    expect(await diagnosticsOf({ "bot/instructions/01.md": half, "bot/instructions/02.md": half })).toEqual([
      { severity: "error", code: "invalid_instructions", message: "the instructions are 2.0 MiB; at most 2.0 MiB fit the prompt of every turn", file: "bot/instructions/" },
    ]);
  });
});

describe("imports that throw values other than Errors", () => {
  it("keep what was thrown", async () => {
    expect(
      await diagnosticsOf({
        ...INSTRUCTIONS,
        "bot/tools/string.ts": 'throw "the API key is missing";',
        "bot/tools/object.ts": "throw { code: 1, reason: 'offline' };",
        "bot/tools/nothing.ts": "throw undefined;",
      }),
    ).toEqual([
      { severity: "error", code: "import_failed", message: "failed to load: undefined", file: "bot/tools/nothing.ts" },
      { severity: "error", code: "import_failed", message: 'failed to load: {"code":1,"reason":"offline"}', file: "bot/tools/object.ts" },
      { severity: "error", code: "import_failed", message: "failed to load: the API key is missing", file: "bot/tools/string.ts" },
    ]);
  });
});
