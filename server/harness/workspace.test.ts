import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { zodTool } from "../../test/support/tools.ts";
import type { LoadedSkill } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import { tempDir } from "./builtin-tools/test-context.ts";
import { prepareWorkspace, resolveInside, writeWorkspaceFiles } from "./workspace.ts";

let temp: ReturnType<typeof tempDir>;
let workspace: string;
let outside: string;

beforeEach(() => {
  temp = tempDir("bdk-workspace-");
  workspace = path.join(temp.dir, "ws");
  outside = path.join(temp.dir, "outside");
  mkdirSync(workspace);
  mkdirSync(outside);
});
afterEach(() => temp.remove());

describe("resolveInside", () => {
  it("resolves relative and inside-absolute paths, including ones that do not exist yet", () => {
    expect(resolveInside(workspace, "a/b.txt")).toBe(path.join(workspace, "a/b.txt"));
    expect(resolveInside(workspace, path.join(workspace, "x"))).toBe(path.join(workspace, "x"));
    expect(resolveInside(workspace, "a/../b")).toBe(path.join(workspace, "b"));
    expect(resolveInside(workspace, ".")).toBe(workspace);
  });

  it("follows symlinks that stay inside, and accepts a workspace reached through a symlink", () => {
    mkdirSync(path.join(workspace, "real"));
    symlinkSync("real", path.join(workspace, "alias"));
    expect(resolveInside(workspace, "alias/f.txt")).toBe(path.join(workspace, "real/f.txt"));
    symlinkSync(workspace, path.join(temp.dir, "ws-link"));
    expect(resolveInside(path.join(temp.dir, "ws-link"), "f.txt")).toBe(path.join(workspace, "f.txt"));
    expect(resolveInside(workspace, path.join(temp.dir, "ws-link", "f.txt"))).toBe(path.join(workspace, "f.txt"));
  });

  it("refuses .., absolute paths outside, symlinks (also dangling ones) leading outside, and NUL bytes", () => {
    symlinkSync(outside, path.join(workspace, "out"));
    symlinkSync(path.join(outside, "nothing-yet"), path.join(workspace, "dangling"));
    expect(() => resolveInside(workspace, "../x")).toThrow('path "../x" is outside the workspace');
    expect(() => resolveInside(workspace, "/etc/passwd")).toThrow('path "/etc/passwd" is outside the workspace');
    expect(() => resolveInside(workspace, "out/x")).toThrow('path "out/x" is outside the workspace');
    expect(() => resolveInside(workspace, "dangling")).toThrow("is outside the workspace");
    expect(() => resolveInside(workspace, "a\0b")).toThrow("NUL byte");
    // A sibling whose name starts with the workspace's name is still outside.
    expect(() => resolveInside(workspace, `${workspace}-other/x`)).toThrow("is outside the workspace");
  });
});

describe("writeWorkspaceFiles", () => {
  it("writes nested files and returns their relative paths", async () => {
    const written = await writeWorkspaceFiles(workspace, { "input.json": "{}", "./docs/a.md": "# A" });
    expect(written).toEqual(["input.json", "docs/a.md"]);
    expect(readFileSync(path.join(workspace, "docs/a.md"), "utf8")).toBe("# A");
  });

  const refusals: Array<[string, string, RegExp]> = [
    ["..", "../escape.txt", /"\.\.\/escape\.txt" must not contain "\.\." segments/],
    ["inner ..", "a/../../escape.txt", /must not contain "\.\." segments/],
    ["absolute", "/tmp/escape.txt", /"\/tmp\/escape\.txt" must be a relative path/],
    ["empty", "", /"" is empty/],
    ["NUL", "a\0b", /contains a NUL byte/],
    ["symlink", "out/escape.txt", /"out\/escape\.txt" resolves outside the workspace through a symbolic link/],
    ["the root itself", "./", /does not name a file/],
    ["a folder", "docs/", /"docs\/" ends with "\/", so it names a folder/],
  ];

  it.each(refusals)("refuses %s paths with invalid_request and writes nothing", async (_label, bad, message) => {
    symlinkSync(outside, path.join(workspace, "out"));
    const attempt = writeWorkspaceFiles(workspace, { "good.txt": "fine", [bad]: "bad" });
    await expect(attempt).rejects.toBeInstanceOf(BdkError);
    await expect(attempt).rejects.toMatchObject({ code: "invalid_request", message: expect.stringMatching(/^workspaceFiles: /) });
    await expect(attempt).rejects.toThrow(message);
    expect(existsSync(path.join(workspace, "good.txt"))).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(temp.dir, "escape.txt"))).toBe(false);
  });

  it("refuses a path that needs a folder where a file exists, before writing anything", async () => {
    writeFileSync(path.join(workspace, "plain"), "x");
    await expect(writeWorkspaceFiles(workspace, { "ok.txt": "1", "plain/child.txt": "2" })).rejects.toThrow(/needs a directory where a file exists/);
    expect(existsSync(path.join(workspace, "ok.txt"))).toBe(false);
  });
});

describe("prepareWorkspace", () => {
  const skill: LoadedSkill = {
    name: "release",
    description: "How to cut a release: tag, notes",
    markdown: "# Release\n\nRun the checklist.",
    files: { "checklist.md": "- tag", "scripts/bump.sh": "echo bump" },
    file: "bot/skills/release/SKILL.md",
  };
  const agentTool = zodTool("fetch_rates", z.object({ currency: z.string() }), () => 0, {
    execution: "agent",
    description: "Fetch currency rates.",
    file: "bot/tools/fetch_rates.ts",
  });

  function seed() {
    const seedDir = path.join(temp.dir, "seed");
    mkdirSync(path.join(seedDir, "data"), { recursive: true });
    writeFileSync(path.join(seedDir, "data", "input.csv"), "a,b\n");
    writeFileSync(path.join(seedDir, "README.md"), "seed readme\n");
    writeFileSync(path.join(seedDir, "AGENTS.md"), "# House rules\n\nBe kind.\n");
    symlinkSync("/etc/passwd", path.join(seedDir, "passwd"));
    return seedDir;
  }

  const setup = (seedDir?: string) => ({
    dir: workspace,
    rootDir: path.join(temp.dir, "project"),
    agentName: "money-bot",
    skills: [skill],
    seedDir,
    agentTools: [agentTool],
  });

  it("writes skills, seed files, agent-tool scripts and their catalogue in AGENTS.md", async () => {
    await prepareWorkspace(setup(seed()));
    const skillMd = readFileSync(path.join(workspace, ".cursor/skills/release/SKILL.md"), "utf8");
    expect(skillMd).toBe('---\nname: "release"\ndescription: "How to cut a release: tag, notes"\n---\n\n# Release\n\nRun the checklist.\n');
    expect(readFileSync(path.join(workspace, ".cursor/skills/release/scripts/bump.sh"), "utf8")).toBe("echo bump");
    expect(readFileSync(path.join(workspace, "data/input.csv"), "utf8")).toBe("a,b\n");
    expect(existsSync(path.join(workspace, "passwd"))).toBe(false);

    const script = readFileSync(path.join(workspace, ".bdk/tools/fetch_rates.mjs"), "utf8");
    expect(script).toContain(JSON.stringify(path.join(temp.dir, "project", "bot/tools/fetch_rates.ts")));

    const agents = readFileSync(path.join(workspace, "AGENTS.md"), "utf8");
    expect(agents.startsWith("# House rules\n\nBe kind.\n\n<!-- bdk:agent-tools:start -->")).toBe(true);
    expect(agents).toContain("### fetch_rates\n\nFetch currency rates.");
    expect(agents).toContain("`node .bdk/tools/fetch_rates.mjs '<json input>'`");
    expect(agents).toContain('"currency":{"type":"string"}');
  });

  it("is idempotent: seed files never overwrite, generated files are refreshed, the catalogue is not duplicated", async () => {
    const seedDir = seed();
    await prepareWorkspace(setup(seedDir));
    writeFileSync(path.join(workspace, "README.md"), "edited by the model\n");
    writeFileSync(path.join(workspace, ".cursor/skills/release/SKILL.md"), "tampered");
    const agentsBefore = readFileSync(path.join(workspace, "AGENTS.md"), "utf8");

    await prepareWorkspace(setup(seedDir));
    expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("edited by the model\n");
    expect(readFileSync(path.join(workspace, ".cursor/skills/release/SKILL.md"), "utf8")).toContain("# Release");
    expect(readFileSync(path.join(workspace, "AGENTS.md"), "utf8")).toBe(agentsBefore);

    await prepareWorkspace({ ...setup(seedDir), agentTools: [] });
    expect(readFileSync(path.join(workspace, "AGENTS.md"), "utf8")).toBe("# House rules\n\nBe kind.\n");
  });

  it("does not read a seed file the workspace already has (a 3 GiB one would not even fit a buffer)", async () => {
    const seedDir = seed();
    // Sparse: no disk is used, but reading it whole fails.
    writeFileSync(path.join(seedDir, "data", "huge.bin"), "");
    truncateSync(path.join(seedDir, "data", "huge.bin"), 3 * 1024 ** 3);
    mkdirSync(path.join(workspace, "data"));
    writeFileSync(path.join(workspace, "data", "huge.bin"), "the model's\n");
    await prepareWorkspace(setup(seedDir));
    expect(readFileSync(path.join(workspace, "data/huge.bin"), "utf8")).toBe("the model's\n");
    expect(readFileSync(path.join(workspace, "data/input.csv"), "utf8")).toBe("a,b\n");
  });

  it("creates a missing workspace and writes no AGENTS.md without agent tools", async () => {
    const fresh = path.join(temp.dir, "fresh", "ws");
    await prepareWorkspace({ ...setup(), dir: fresh, agentTools: [] });
    expect(existsSync(path.join(fresh, ".cursor/skills/release/SKILL.md"))).toBe(true);
    expect(existsSync(path.join(fresh, "AGENTS.md"))).toBe(false);
  });

  it("does not write through a symlink the model planted where generated files go", async () => {
    mkdirSync(path.join(workspace, ".cursor"));
    symlinkSync(outside, path.join(workspace, ".cursor", "skills"));
    await expect(prepareWorkspace(setup())).rejects.toThrow(/outside the workspace/);
    expect(readdirSync(outside)).toEqual([]);
  });
});
