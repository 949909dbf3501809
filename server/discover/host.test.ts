import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import { discoverHost, slugProblem } from "./host.ts";

afterAll(removeTempProjects);

describe("discoverHost", () => {
  it("recognises a single project", () => {
    const dir = tempProject({ "bot/instructions.md": "x" }, { nodeModules: false });
    expect(discoverHost(dir)).toMatchObject({ kind: "single", dir });
  });

  it("lists the projects of a multi-agent folder by slug, skipping plain folders", () => {
    const dir = tempProject(
      {
        "pr-bot/bot/instructions.md": "x",
        "ops_2/agent/instructions.md": "x",
        "docs-site/README.md": "not a project",
      },
      { nodeModules: false },
    );
    const layout = discoverHost(dir);
    expect(layout.kind).toBe("multi");
    expect(layout.kind === "multi" && layout.agents.map((agent) => agent.slug)).toEqual(["ops_2", "pr-bot"]);
    expect(layout.diagnostics).toEqual([]);
  });

  it("rejects reserved and malformed slugs", () => {
    const dir = tempProject({ "v1/bot/instructions.md": "x", "ok/bot/instructions.md": "x", "-bad/bot/instructions.md": "x" }, { nodeModules: false });
    const layout = discoverHost(dir);
    expect(layout.kind === "multi" && layout.agents.map((agent) => agent.slug)).toEqual(["ok"]);
    expect(layout.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["invalid_slug", "-bad/"],
      ["invalid_slug", "v1/"],
    ]);
    expect(slugProblem("playground")).toMatch(/reserved/);
    expect(slugProblem("docs")).toMatch(/reserved/);
    expect(slugProblem("a b")).toMatch(/not a valid/);
    expect(slugProblem("Agent_1-x")).toBeUndefined();
  });

  it("reports a folder that is neither", () => {
    const layout = discoverHost(tempProject({ "x/README.md": "" }, { nodeModules: false }));
    expect(layout).toMatchObject({ kind: "empty", diagnostics: [{ code: "missing_bot_dir", severity: "error" }] });
  });
});
