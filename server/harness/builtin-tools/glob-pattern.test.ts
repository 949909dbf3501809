import { describe, expect, it } from "vitest";
import { fileFilter, globToRegExp } from "./glob-pattern.ts";

describe("globToRegExp", () => {
  const matches = (pattern: string, candidate: string) => globToRegExp(pattern).test(candidate);

  it("* and ? stay within one path segment", () => {
    expect(matches("*.ts", "a.ts")).toBe(true);
    expect(matches("*.ts", "src/a.ts")).toBe(false);
    expect(matches("a?.md", "ab.md")).toBe(true);
    expect(matches("a?.md", "a/.md")).toBe(false);
  });

  it("**/ matches zero or more folders; ** alone matches anything", () => {
    expect(matches("**/*.ts", "a.ts")).toBe(true);
    expect(matches("**/*.ts", "x/y/a.ts")).toBe(true);
    expect(matches("src/**/test.ts", "src/test.ts")).toBe(true);
    expect(matches("src/**/test.ts", "src/a/b/test.ts")).toBe(true);
    expect(matches("src/**", "src/a/b")).toBe(true);
    expect(matches("src/**", "lib/a")).toBe(false);
  });

  it("{a,b} alternatives, regex characters literal", () => {
    expect(matches("*.{ts,tsx}", "a.tsx")).toBe(true);
    expect(matches("*.{ts,tsx}", "a.js")).toBe(false);
    expect(matches("a+b(1).txt", "a+b(1).txt")).toBe(true);
    expect(matches("a.txt", "abtxt")).toBe(false);
    expect(() => globToRegExp("{a,b")).toThrow(/unclosed/);
  });

  it("a filter without / matches the file name at any depth", () => {
    expect(fileFilter("*.ts")("deep/down/a.ts")).toBe(true);
    expect(fileFilter("src/*.ts")("deep/src/a.ts")).toBe(false);
    expect(fileFilter("src/*.ts")("src/a.ts")).toBe(true);
  });
});
