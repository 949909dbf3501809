/**
 * unresolved-imports: the imports that fail in public projects run on
 * another machine (a dependency listed but not installed, a tsconfig alias
 * the project does not declare, a typo in a relative path, a private file
 * of the published package), each reported once, where it is, with what to
 * do; the tool that loaded still answers `bdk call`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { fieldProjectWithState, type FieldProject } from "./support/field.ts";

let project: FieldProject;

beforeAll(() => {
  project = fieldProjectWithState("unresolved-imports");
});
afterAll(() => removeTempProjects());

const REPORTED = [
  ["bot/tools/changelog.ts:4  failed to load: Cannot find module '@/bot/lib/changes'",
    'It reads as a path alias: declare it in compilerOptions.paths of a tsconfig.json at the project root (e.g. "@/*": ["./*"]), which the loader follows, or import it by a relative path.'],
  ["bot/tools/owners.ts:3  failed to load: Cannot find module '../lib/owner'",
    "No file ../lib/owner (.ts, .js, /index.ts) relative to bot/tools/; did you mean ../lib/owners?"],
  ["bot/tools/session_log.ts:4  failed to load: @cursor/bdk/dist/runtime/session-log.js is a private file of the published @cursor/bdk: it needs the Cursor-hosted kit",
    "The open kit has only the documented entry points (@cursor/bdk, @cursor/bdk/tools, @cursor/bdk/evals, ...); import from one of them. See `bdk docs migrating-from-cursor-bdk`."],
  ["bot/lib/calendar.ts:2  2 tools import bot/lib/calendar.ts, which failed: Cannot find package 'date-fns-tz-missing': package.json lists it, but it is not installed",
    "Run npm install in the project. Imported by bot/tools/last_release.ts, bot/tools/next_release.ts; none of them loaded. Fix bot/lib/calendar.ts and they all load."],
];

describe("unresolved-imports", () => {
  it("validate: one error per unresolved import, at its line, with what to do", async () => {
    const validated = await project.bdk("validate");
    expect(validated.stdout).toBe(
      [...REPORTED.flatMap(([line, hint]) => [`error    ${line}`, `         ${hint}`]), "unresolved-imports: invalid (4 errors, 0 warnings)", ""].join("\n"),
    );
    expect(validated.stdout).not.toMatch(/Require stack|node:internal|\/node_modules\//);
    expect(validated.code).toBe(1);
  });

  it("info --json: the same four, and the tool that loaded", async () => {
    const info = JSON.parse((await project.bdk("info", ["--json"])).stdout) as { tools: { name: string }[]; diagnostics: { file: string; line?: number; hint?: string }[] };
    expect(info.tools.map((tool) => tool.name)).toEqual(["ping"]);
    expect(info.diagnostics.map(({ file, line }) => `${file}:${line}`)).toEqual(["bot/tools/changelog.ts:4", "bot/tools/owners.ts:3", "bot/tools/session_log.ts:4", "bot/lib/calendar.ts:2"]);
  });

  it("run: refuses, each error followed by its hint", async () => {
    const refused = await project.bdk("run", ["--message", "ping"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`bdk run: the agent in ${project.dir} has errors:\n${REPORTED.map(([line, hint]) => `  ${line}\n    ${hint}`).join("\n")}\n`);
  });

  it("call: the tool that loaded answers, with a warning", async () => {
    const called = await project.bdk("call", ["ping", "--input", "{}"]);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: "pong" });
    expect(called.stderr).toBe("warning: the agent has 4 errors (bdk validate lists them); calling ping, which loaded.\n");
    expect(called.code).toBe(0);
  });
});
