/**
 * catalog-bot: three tools share `bot/lib/catalog.ts`, which throws at import
 * (its environment variable is unset), and `greet` imports a name
 * `bot/lib/format.ts` does not export. Through validate, info, run, call,
 * eval and serve: each problem is reported once, where it is, and a tool that
 * loaded can still be called.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { fieldProjectWithState, type FieldProject } from "./support/field.ts";

const MISSING_EXPORT = 'bot/tools/greet.ts:3  imports "formatGreeting" from bot/lib/format.ts, which does not export it';
const SHARED_FAILURE = "bot/lib/catalog.ts:4  3 tools import bot/lib/catalog.ts, which failed: CATALOG_URL is not set";
const CATALOG_LOADS = /catalog-bot: connecting to the catalog/g;

let project: FieldProject;
beforeAll(() => {
  project = fieldProjectWithState("catalog-bot");
});
afterAll(removeTempProjects);

describe("catalog-bot", () => {
  it("validate: one error for the shared module (evaluated once), one for the missing export; five lines in all", async () => {
    const validated = await project.bdk("validate");
    expect(validated.code).toBe(1);
    expect(validated.stdout.trimEnd().split("\n")).toEqual([
      `error    ${MISSING_EXPORT}`,
      "         Export it from bot/lib/format.ts, or fix the import: as it is, the value is undefined when the code runs.",
      `error    ${SHARED_FAILURE}`,
      "         Imported by bot/tools/catalog_get.ts, bot/tools/catalog_list.ts, bot/tools/catalog_search.ts; none of them loaded. Fix bot/lib/catalog.ts and they all load.",
      "catalog-bot: invalid (2 errors, 0 warnings)",
    ]);
    expect(validated.stderr.match(CATALOG_LOADS)).toHaveLength(1);
  });

  it("validate: with the variable set the catalog loads, and only the missing export is left", async () => {
    const validated = await project.bdk("validate", [], { CATALOG_URL: "http://catalog.internal" });
    expect(validated.stdout).toContain(MISSING_EXPORT);
    expect(validated.stdout).toContain("catalog-bot: invalid (1 error, 0 warnings)");
  });

  it("info: lists what loaded and both problems", async () => {
    const info = await project.bdk("info");
    expect(info.code).toBe(1);
    expect(info.stdout).toMatch(/^tools \(2\)\n {2}greet +read +Greet a customer by name\.\n {2}ping +read +Check that the bot is up\.$/m);
    expect(info.stdout).toContain(MISSING_EXPORT);
    expect(info.stdout).toContain(SHARED_FAILURE);
  });

  it("call: a tool that loaded runs, with a warning; one that did not is refused with the reason", async () => {
    const ping = await project.bdk("call", ["ping"]);
    expect(ping.code, ping.stderr).toBe(0);
    expect(JSON.parse(ping.stdout)).toEqual({ isError: false, result: "pong" });
    expect(ping.stderr).toContain("warning: the agent has 2 errors (bdk validate lists them); calling ping, which loaded.");

    const refused = await project.bdk("call", ["catalog_get", "--input", '{"sku":"A-1"}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('bdk call: tool "catalog_get" is not available: the agent has errors:');
    expect(refused.stderr).toContain("bot/lib/catalog.ts  3 tools import bot/lib/catalog.ts, which failed: CATALOG_URL is not set");
    expect(refused.stdout).toBe("");
  });

  for (const [command, args] of [
    ["run", ["--message", "ping"]],
    ["eval", []],
    ["serve", ["--port", "0", "--no-playground"]],
  ] as const) {
    it(`${command}: refuses, naming both problems`, async () => {
      const refused = await project.bdk(command, [...args]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(new RegExp(`^bdk ${command}: `, "m"));
      expect(refused.stderr).toContain('imports "formatGreeting" from bot/lib/format.ts, which does not export it');
      expect(refused.stderr).toContain("3 tools import bot/lib/catalog.ts, which failed: CATALOG_URL is not set");
    });
  }
});
