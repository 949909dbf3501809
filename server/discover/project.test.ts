import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import type { Diagnostic } from "./diagnostics.ts";
import { evalFileId } from "./evals.ts";
import { discoverProject } from "./project.ts";

afterAll(removeTempProjects);

const INSTRUCTIONS = { "bot/instructions.md": "You help." };

function discover(files: Record<string, string>) {
  const result = discoverProject(tempProject(files, { nodeModules: false }));
  return { manifest: result.manifest!, diagnostics: result.diagnostics };
}

function find(diagnostics: Diagnostic[], code: string, file?: string): Diagnostic | undefined {
  return diagnostics.find((diagnostic) => diagnostic.code === code && (file === undefined || diagnostic.file === file));
}

describe("roots", () => {
  it("reports a directory without bot/ or agent/", () => {
    const result = discoverProject(tempProject({ "README.md": "hi" }, { nodeModules: false }));
    expect(result.manifest).toBeUndefined();
    expect(result.diagnostics).toMatchObject([{ severity: "error", code: "missing_bot_dir" }]);
  });

  it("loads a legacy agent/ folder", () => {
    const { manifest, diagnostics } = discover({ "agent/instructions.md": "Hi", "agent/tools/a.ts": "" });
    expect(manifest.botDir).toBe("agent");
    expect(manifest.tools).toEqual([{ name: "a", file: "agent/tools/a.ts" }]);
    expect(diagnostics).toEqual([]);
  });

  it("prefers bot/ over agent/ and warns naming the ignored one", () => {
    const { manifest, diagnostics } = discover({ ...INSTRUCTIONS, "agent/instructions.md": "old" });
    expect(manifest.botDir).toBe("bot");
    expect(diagnostics).toMatchObject([{ severity: "warning", code: "legacy_dir_ignored", file: "agent/" }]);
    expect(diagnostics[0].message).toContain("agent/ is ignored");
  });

  it("names the agent from package.json, else the directory", () => {
    expect(discover({ ...INSTRUCTIONS, "package.json": '{ "name": "pr-reviewer" }' }).manifest.name).toBe("pr-reviewer");
    expect(discover(INSTRUCTIONS).manifest.name).toMatch(/^bdk-test-/);
    const broken = discover({ ...INSTRUCTIONS, "package.json": "{ nope" });
    expect(broken.manifest.name).toMatch(/^bdk-test-/);
    expect(find(broken.diagnostics, "invalid_definition", "package.json")?.severity).toBe("warning");
  });
});

describe("instructions", () => {
  it("is required on the root", () => {
    const { diagnostics } = discover({ "bot/tools/a.ts": "" });
    expect(find(diagnostics, "missing_instructions")).toMatchObject({ severity: "error", file: "bot/instructions.md" });
  });

  it("accepts .md, .ts and a directory composed in filename order", () => {
    expect(discover(INSTRUCTIONS).manifest.instructions).toEqual({ form: "markdown", files: ["bot/instructions.md"] });
    expect(discover({ "bot/instructions.mts": "" }).manifest.instructions).toEqual({ form: "module", files: ["bot/instructions.mts"] });
    const dir = discover({ "bot/instructions/b.md": "B", "bot/instructions/a.md": "A", "bot/instructions/notes.txt": "x" });
    expect(dir.manifest.instructions).toEqual({ form: "directory", files: ["bot/instructions/a.md", "bot/instructions/b.md"] });
    expect(find(dir.diagnostics, "unknown_file", "bot/instructions/notes.txt")?.severity).toBe("warning");
  });

  it("rejects two forms at once", () => {
    const { diagnostics } = discover({ ...INSTRUCTIONS, "bot/instructions.ts": "" });
    expect(find(diagnostics, "multiple_forms")?.severity).toBe("error");
  });
});

describe("capability folders", () => {
  it("passes over unit tests beside definitions in silence, and names a CommonJS file", () => {
    const { manifest, diagnostics } = discover({
      ...INSTRUCTIONS,
      "bot/agent.test.ts": "",
      "bot/__tests__/agent.ts": "",
      "bot/tools/greet.ts": "",
      "bot/tools/greet.test.ts": "",
      "bot/tools/greet.spec.mjs": "",
      "bot/tools/__tests__/greet.ts": "",
      "bot/tools/__mocks__/client.ts": "",
      "bot/hooks/audit.ts": "",
      "bot/hooks/audit.test.ts": "",
      "bot/hooks/nested/__tests__/x.ts": "",
      "bot/extensions/ci/index.ts": "",
      "bot/extensions/ci.spec.ts": "",
      "bot/tools/legacy.cjs": "",
    });
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["greet"]);
    expect(manifest.hooks.map((hook) => hook.name)).toEqual(["audit"]);
    expect(manifest.extensions.map((extension) => extension.name)).toEqual(["ci"]);
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        code: "unknown_file",
        message: "is a CommonJS file; definitions are ES modules, so it is ignored",
        file: "bot/tools/legacy.cjs",
        hint: "Rename it to .ts or .js, with `export default` for the definition.",
      },
    ]);
  });

  it("maps every path to its capability and name, with all module extensions", () => {
    const { manifest, diagnostics } = discover({
      ...INSTRUCTIONS,
      "bot/agent.ts": "",
      "bot/tools/a.ts": "",
      "bot/tools/b.mts": "",
      "bot/tools/c.js": "",
      "bot/tools/d.mjs": "",
      "bot/tools/types.d.ts": "",
      "bot/skills/one.md": "",
      "bot/skills/two/SKILL.md": "",
      "bot/skills/two/ref.md": "",
      "bot/skills/three.ts": "",
      "bot/subagents/researcher/agent.ts": "",
      "bot/subagents/researcher/instructions.md": "",
      "bot/mcp-connections/linear.ts": "",
      "bot/host-connections/anytool.ts": "",
      "bot/extensions/ci.ts": "",
      "bot/extensions/notion/index.ts": "",
      "bot/extensions/notion/helpers.ts": "",
      "bot/channels/drive.ts": "",
      "bot/hooks/audit.ts": "",
      "bot/hooks/audit/usage.ts": "",
      "bot/artifacts.ts": "",
      "bot/result.ts": "",
      "bot/schedules/daily.md": "",
      "bot/schedules/sweep.ts": "",
      "bot/reminders/ci_recheck.ts": "",
      "bot/sandbox/workspace/README.md": "",
      "bot/sandbox/workspace/data/seed.json": "",
      "bot/lib/helpers.ts": "",
      "bot/lib/deep/more.ts": "",
    });
    expect(diagnostics).toEqual([]);
    expect(manifest.agentFile).toBe("bot/agent.ts");
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["a", "b", "c", "d"]);
    expect(manifest.skills).toEqual([
      { name: "one", file: "bot/skills/one.md", form: "markdown" },
      { name: "three", file: "bot/skills/three.ts", form: "module" },
      { name: "two", file: "bot/skills/two/SKILL.md", form: "directory" },
    ]);
    expect(manifest.subagents).toEqual([
      { id: "researcher", file: "bot/subagents/researcher/agent.ts", instructionsFile: "bot/subagents/researcher/instructions.md" },
    ]);
    expect(manifest.mcpConnections).toEqual([{ name: "linear", file: "bot/mcp-connections/linear.ts" }]);
    expect(manifest.hostConnections).toEqual([{ name: "anytool", file: "bot/host-connections/anytool.ts" }]);
    expect(manifest.extensions).toEqual([
      { name: "ci", file: "bot/extensions/ci.ts" },
      { name: "notion", file: "bot/extensions/notion/index.ts" },
    ]);
    expect(manifest.channels).toEqual([{ name: "drive", file: "bot/channels/drive.ts" }]);
    expect(manifest.hooks.map((hook) => hook.name)).toEqual(["audit", "audit/usage"]);
    expect(manifest.artifactsFile).toBe("bot/artifacts.ts");
    expect(manifest.resultFile).toBe("bot/result.ts");
    expect(manifest.schedules).toEqual([
      { name: "daily", file: "bot/schedules/daily.md" },
      { name: "sweep", file: "bot/schedules/sweep.ts" },
    ]);
    expect(manifest.reminders).toEqual([{ name: "ci_recheck", file: "bot/reminders/ci_recheck.ts" }]);
    expect(manifest.sandboxFiles).toEqual(["README.md", "data/seed.json"]);
  });

  it("reports invalid tool names naming the file", () => {
    const { manifest, diagnostics } = discover({ ...INSTRUCTIONS, "bot/tools/bad name.ts": "", "bot/tools/ok.ts": "" });
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["ok"]);
    expect(find(diagnostics, "invalid_name", "bot/tools/bad name.ts")).toMatchObject({ severity: "error" });
    const long = discover({ ...INSTRUCTIONS, [`bot/tools/${"x".repeat(65)}.ts`]: "" });
    expect(find(long.diagnostics, "invalid_name")?.severity).toBe("error");
  });

  it("reports two files deriving the same name", () => {
    const { manifest, diagnostics } = discover({ ...INSTRUCTIONS, "bot/tools/a.ts": "", "bot/tools/a.js": "" });
    expect(manifest.tools).toHaveLength(1);
    const duplicate = find(diagnostics, "duplicate_name");
    expect(duplicate).toMatchObject({ severity: "error", file: "bot/tools/a.ts" });
    expect(duplicate?.message).toContain("bot/tools/a.js");
    const skills = discover({ ...INSTRUCTIONS, "bot/skills/x.md": "", "bot/skills/x/SKILL.md": "" });
    expect(find(skills.diagnostics, "duplicate_name")?.severity).toBe("error");
  });

  it("warns on unknown directories and files, ignores lib/", () => {
    const { diagnostics } = discover({ ...INSTRUCTIONS, "bot/utils/x.ts": "", "bot/notes.txt": "", "bot/tools/README.md": "", "bot/lib/x.ts": "" });
    expect(find(diagnostics, "unknown_directory", "bot/utils/")?.severity).toBe("warning");
    expect(find(diagnostics, "unknown_file", "bot/notes.txt")?.severity).toBe("warning");
    expect(find(diagnostics, "unknown_file", "bot/tools/README.md")?.severity).toBe("warning");
    expect(diagnostics.every((diagnostic) => diagnostic.severity === "warning")).toBe(true);
  });

  it("warns that bot/evals is ignored", () => {
    const { manifest, diagnostics } = discover({ ...INSTRUCTIONS, "bot/evals/x.eval.ts": "" });
    expect(find(diagnostics, "evals_inside_bot")).toMatchObject({ severity: "warning", file: "bot/evals/" });
    expect(manifest.evals).toEqual([]);
  });

  it("ignores capability folders inside a subagent with a warning, and requires agent.ts", () => {
    const { manifest, diagnostics } = discover({
      ...INSTRUCTIONS,
      "bot/subagents/r/agent.ts": "",
      "bot/subagents/r/tools/x.ts": "",
      "bot/subagents/r/subagents/deeper/agent.ts": "",
      "bot/subagents/empty/instructions.md": "x",
    });
    expect(manifest.subagents.map((subagent) => subagent.id)).toEqual(["r"]);
    expect(manifest.tools).toEqual([]);
    expect(find(diagnostics, "subagent_capability_ignored", "bot/subagents/r/tools/")?.severity).toBe("warning");
    expect(find(diagnostics, "subagent_capability_ignored", "bot/subagents/r/subagents/")?.severity).toBe("warning");
    expect(find(diagnostics, "invalid_definition", "bot/subagents/empty/")?.severity).toBe("error");
  });

  it("requires SKILL.md in a skill folder and index.ts in an extension folder", () => {
    const { diagnostics } = discover({ ...INSTRUCTIONS, "bot/skills/x/notes.md": "", "bot/extensions/y/helper.ts": "" });
    expect(find(diagnostics, "invalid_definition", "bot/skills/x/")?.severity).toBe("error");
    expect(find(diagnostics, "invalid_extension", "bot/extensions/y/")?.severity).toBe("error");
  });

  it("names hooks by path and validates each segment", () => {
    const { manifest, diagnostics } = discover({ ...INSTRUCTIONS, "bot/hooks/a/b/c.ts": "", "bot/hooks/bad dir/x.ts": "" });
    expect(manifest.hooks).toEqual([{ name: "a/b/c", file: "bot/hooks/a/b/c.ts" }]);
    expect(find(diagnostics, "invalid_name", "bot/hooks/bad dir/x.ts")?.severity).toBe("error");
  });
});

describe("evals", () => {
  it("derives ids from paths; index.eval.ts takes its folder's id", () => {
    expect(evalFileId("readiness.eval.ts")).toBe("readiness");
    expect(evalFileId("orders/refunds.eval.js")).toBe("orders/refunds");
    expect(evalFileId("orders/index.eval.ts")).toBe("orders");
    expect(evalFileId("index.eval.ts")).toBe("index");
    const { manifest, diagnostics } = discover({
      ...INSTRUCTIONS,
      "evals/evals.config.ts": "",
      "evals/readiness.eval.ts": "",
      "evals/orders/index.eval.ts": "",
      "evals/orders/refunds.eval.mjs": "",
      "evals/fixtures/pr.json": "{}",
    });
    expect(diagnostics).toEqual([]);
    expect(manifest.evalsConfigFile).toBe("evals/evals.config.ts");
    expect(manifest.evals).toEqual([
      { name: "orders", file: "evals/orders/index.eval.ts" },
      { name: "orders/refunds", file: "evals/orders/refunds.eval.mjs" },
      { name: "readiness", file: "evals/readiness.eval.ts" },
    ]);
  });

  it("warns, in the evals scope, when evals exist without evals/evals.config.ts", () => {
    const { diagnostics } = discover({ ...INSTRUCTIONS, "evals/a.eval.ts": "" });
    expect(find(diagnostics, "missing_evals_config")).toMatchObject({ severity: "warning", file: "evals/evals.config.ts", scope: "evals" });
    expect(find(discover(INSTRUCTIONS).diagnostics, "missing_evals_config")).toBeUndefined();
  });

  it("reports two files with the same id", () => {
    const { diagnostics } = discover({ ...INSTRUCTIONS, "evals/evals.config.ts": "", "evals/a.eval.ts": "", "evals/a/index.eval.ts": "" });
    expect(find(diagnostics, "duplicate_name")?.severity).toBe("error");
  });
});
