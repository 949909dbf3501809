import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";
import { tsconfigExtendsChain } from "./tsconfig-extends.ts";

afterAll(removeTempProjects);

const chainOf = (files: Record<string, string>, config = "app/tsconfig.json") => {
  const dir = tempProject(files, { nodeModules: false });
  const chain = tsconfigExtendsChain(path.join(dir, config));
  return chain?.map((file) => path.relative(dir, file));
};

describe("tsconfigExtendsChain", () => {
  it("follows relative extends, with and without .json, an array of them, and their own extends", () => {
    expect(
      chainOf({
        "app/tsconfig.json": '{\n  // two bases\n  "extends": ["./base", "../common/strict.json",],\n}',
        "app/base.json": '{ "extends": "./root" }',
        "app/root.json": "{}",
        "common/strict.json": '{ "compilerOptions": { "strict": true } }',
      }),
    ).toEqual(["app/base", "app/base.json", "app/root", "app/root.json", "common/strict.json"]);
  });

  it("finds a package in the nearest node_modules up, listing the nearer places it was looked for", () => {
    expect(
      chainOf({
        "app/tsconfig.json": '{ "extends": ["@tsconfig/node20", "presets/web"] }',
        "node_modules/@tsconfig/node20/package.json": '{ "name": "@tsconfig/node20", "tsconfig": "./node20.json" }',
        "node_modules/@tsconfig/node20/node20.json": "{}",
        "node_modules/presets/package.json": '{ "name": "presets" }',
        "node_modules/presets/web/tsconfig.json": "{}",
      }),
    ).toEqual([
      "app/node_modules/@tsconfig/node20/package.json",
      "app/node_modules/@tsconfig/node20/tsconfig.json",
      "node_modules/@tsconfig/node20/package.json",
      "node_modules/@tsconfig/node20/node20.json",
      "app/node_modules/presets/package.json",
      "app/node_modules/presets/web",
      "app/node_modules/presets/web.json",
      "app/node_modules/presets/web/tsconfig.json",
      "node_modules/presets/package.json",
      "node_modules/presets/web",
      "node_modules/presets/web.json",
      "node_modules/presets/web/tsconfig.json",
    ]);
  });

  it("lists a missing extended config (its creation changes the chain), and ends a cycle", () => {
    expect(chainOf({ "app/tsconfig.json": '{ "extends": "./gone" }' })).toEqual(["app/gone", "app/gone.json"]);
    expect(chainOf({ "app/tsconfig.json": '{ "extends": "./a.json" }', "app/a.json": '{ "extends": "./tsconfig.json" }' })).toEqual(["app/a.json"]);
  });

  it("cannot follow a config that does not parse, an extends that is not a string, or a package with an exports map", () => {
    expect(chainOf({ "app/tsconfig.json": '{ "extends": "./a.json" }', "app/a.json": "{ nope" })).toBeUndefined();
    expect(chainOf({ "app/tsconfig.json": '{ "extends": 42 }' })).toBeUndefined();
    expect(
      chainOf({
        "app/tsconfig.json": '{ "extends": "mapped/base.json" }',
        "node_modules/mapped/package.json": '{ "exports": { "./base.json": "./dist/base.json" } }',
      }),
    ).toBeUndefined();
  });
});
