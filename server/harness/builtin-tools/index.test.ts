import { describe, expect, it } from "vitest";
import type { LoadedSkill } from "../../load/types.ts";
import { executeTool } from "../execute-tool.ts";
import { builtinTools } from "./index.ts";
import { toolContext } from "./test-context.ts";

const skills: LoadedSkill[] = [
  { name: "triage", description: "Sort incoming issues", markdown: "# Triage\n\nLabel first.", files: { "labels.md": "bug", "a/b.txt": "x" }, file: "bot/skills/triage/SKILL.md" },
  { name: "deploy", description: "Ship it", markdown: "Deploy steps", files: {}, file: "bot/skills/deploy.md" },
];

const names = (options: Parameters<typeof builtinTools>[0]) => builtinTools(options).map((tool) => tool.name);

describe("builtinTools", () => {
  it("returns every built-in in a stable order, as builtin server tools with JSON Schemas", () => {
    const tools = builtinTools({ skills });
    expect(tools.map((tool) => tool.name)).toEqual(["read", "write", "edit", "ls", "glob", "grep", "shell", "load_skill"]);
    for (const tool of tools) {
      expect(tool).toMatchObject({ source: "builtin", execution: "server", needsApprovalLabel: false });
      expect(tool.inputJsonSchema).toMatchObject({ type: "object" });
      expect(tool.description.length).toBeGreaterThan(20);
    }
    expect(tools.filter((tool) => tool.effectLabel === "write").map((tool) => tool.name)).toEqual(["write", "edit", "shell"]);
  });

  it("applies the defineAgent allowlist: undefined = all, [] = none, unknown names ignored", () => {
    expect(names({ skills, allow: ["grep", "read", "task", "ls"] })).toEqual(["read", "ls", "grep"]);
    expect(names({ skills, allow: [] })).toEqual([]);
    expect(names({ skills: [] })).toEqual(["read", "write", "edit", "ls", "glob", "grep", "shell"]);
  });
});

describe("load_skill", () => {
  const loadSkill = builtinTools({ skills, allow: ["load_skill"] })[0];

  it("returns the skill body and its files", async () => {
    const outcome = await executeTool(loadSkill, { name: "triage" }, toolContext("/nonexistent"));
    expect(outcome).toMatchObject({
      isError: false,
      output: {
        name: "triage",
        description: "Sort incoming issues",
        content: "# Triage\n\nLabel first.",
        directory: ".cursor/skills/triage",
        files: ["a/b.txt", "labels.md"],
      },
    });
  });

  it("names the available skills when the name is unknown", async () => {
    const outcome = await executeTool(loadSkill, { name: "nope" }, toolContext("/nonexistent"));
    expect(outcome).toMatchObject({ isError: true, output: 'unknown skill "nope"; available skills: triage, deploy' });
  });
});
