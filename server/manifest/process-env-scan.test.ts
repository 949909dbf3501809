import { describe, expect, it } from "vitest";
import { environmentReads } from "./process-env-scan.ts";

describe("environmentReads", () => {
  it("does not report Object.prototype methods called on process.env", () => {
    const source = `
      if (process.env.hasOwnProperty("FEATURE_FLAG")) console.log(process.env.toString());
      const keys = Object.keys(process.env).filter((key) => process.env.propertyIsEnumerable(key));
      export const token = process.env.API_TOKEN;`;
    expect(environmentReads("tool.ts", source)).toEqual(["API_TOKEN"]);
  });

  it("follows an alias of process.env only within the scope that declares it", () => {
    const source = `
      function configure() {
        const env = process.env;
        return env.REAL_SETTING;
      }
      export function render(env: { theme: string }) {
        return env.theme;
      }
      export function later(process: { env: Record<string, string> }) {
        return process.env.NOT_THE_PROCESS;
      }`;
    expect(environmentReads("tool.ts", source)).toEqual(["REAL_SETTING"]);
  });

  it("still reads module-level aliases, imports and destructuring wherever they are used", () => {
    const source = `
      import { env as processEnv } from "node:process";
      import proc from "process";
      const { env } = proc;
      const { DESTRUCTURED } = env;
      export const a = () => processEnv.FROM_IMPORT;
      export const b = () => env.FROM_ALIAS;`;
    expect(environmentReads("tool.js", source)).toEqual(["DESTRUCTURED", "FROM_IMPORT", "FROM_ALIAS"]);
  });
});
