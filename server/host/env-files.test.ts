import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import { loadEnvFiles } from "./env-files.ts";

afterAll(removeTempProjects);

describe("loadEnvFiles", () => {
  it(".env.local wins over .env, and a variable already set wins over both", () => {
    const dir = tempProject(
      {
        ".env": "A=from-env\nB=from-env\nC=from-env\n# a comment\nQUOTED=\"two words\"\n",
        ".env.local": "B=from-local\nC=from-local\n",
      },
      { nodeModules: false },
    );
    const env: Record<string, string | undefined> = { C: "already-set" };
    expect(loadEnvFiles(dir, env)).toEqual([".env.local", ".env"]);
    expect(env).toEqual({ A: "from-env", B: "from-local", C: "already-set", QUOTED: "two words" });
  });

  it("keeps a variable set to the empty string", () => {
    const dir = tempProject({ ".env": "EMPTY=filled\n" }, { nodeModules: false });
    const env: Record<string, string | undefined> = { EMPTY: "" };
    loadEnvFiles(dir, env);
    expect(env.EMPTY).toBe("");
  });

  it("reads nothing when the project has no files", () => {
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFiles(tempProject({}, { nodeModules: false }), env)).toEqual([]);
    expect(env).toEqual({});
  });

  it("names a file it cannot read", () => {
    const dir = tempProject({}, { nodeModules: false });
    mkdirSync(path.join(dir, ".env"));
    writeFileSync(path.join(dir, ".env.local"), "X=1\n");
    expect(() => loadEnvFiles(dir, {})).toThrow(`cannot read ${path.join(dir, ".env")} (EISDIR)`);
  });
});
