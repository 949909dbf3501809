import { describe, expect, it } from "vitest";
import { cronProblem, nextFireTime } from "./cron.ts";
import { parseFrontmatter } from "./frontmatter.ts";

describe("cron", () => {
  it("accepts standard 5-field expressions", () => {
    for (const expression of ["0 9 * * 1-5", "*/30 * * * *", "15 3 1 */2 0"]) expect(cronProblem(expression)).toBeUndefined();
  });

  it("rejects other field counts, nicknames and bad values", () => {
    expect(cronProblem("0 0 9 * * 1-5")).toMatch(/6 field\(s\)/);
    expect(cronProblem("@daily")).toMatch(/1 field/);
    expect(cronProblem("61 * * * *")).toMatch(/^invalid cron "61 \* \* \* \*"/);
    expect(cronProblem("")).toMatch(/non-empty/);
    expect(cronProblem(5)).toMatch(/non-empty string/);
  });

  it("computes the next firing in UTC", () => {
    expect(nextFireTime("0 9 * * 1-5", new Date("2025-01-03T10:00:00Z"))).toBe("2025-01-06T09:00:00.000Z");
    expect(nextFireTime("*/30 * * * *", new Date("2025-01-03T10:05:00Z"))).toBe("2025-01-03T10:30:00.000Z");
    expect(nextFireTime("nope")).toBeUndefined();
  });
});

describe("frontmatter", () => {
  it("splits YAML frontmatter from the body", () => {
    expect(parseFrontmatter('---\ncron: "0 9 * * 1-5"\n---\n\nPull incidents.\n')).toEqual({
      data: { cron: "0 9 * * 1-5" },
      body: "\nPull incidents.\n",
      bodyLine: 4,
    });
    expect(parseFrontmatter("No frontmatter")).toEqual({ data: {}, body: "No frontmatter", bodyLine: 1 });
  });

  it("throws on frontmatter that is not a mapping", () => {
    expect(() => parseFrontmatter("---\n- a\n- b\n---\nbody")).toThrow(/mapping/);
    expect(() => parseFrontmatter("---\ncron: [unclosed\n---\nbody")).toThrow();
  });
});
