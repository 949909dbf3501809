import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { scanImports } from "./import-graph.ts";
import { esbuildChildren } from "./testing/esbuild-children.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";

afterAll(removeTempProjects);

it("finds a project's imports and missing exports, and leaves no esbuild service process running afterwards", async () => {
  const dir = tempProject({
    "bot/tools/a.ts": 'import { helper, nope } from "../lib/helper.js";\nexport default { description: "a", execute: () => helper() + String(nope) };\n',
    "bot/lib/helper.ts": "export const helper = () => 1;\n",
  });
  const files = [path.join(dir, "bot/tools/a.ts")];
  // One another test file in this worker left (its own copy of esbuild's module) is not this scan's.
  const before = new Set(esbuildChildren());
  const [first, second] = await Promise.all([scanImports(dir, files), scanImports(dir, files)]);
  for (const scan of [first, second]) {
    expect([...(scan?.imports.get(files[0]!) ?? [])]).toEqual([path.join(dir, "bot/lib/helper.ts")]);
    expect(scan?.missingExports.map((missing) => missing.name)).toEqual(["nope"]);
  }
  // Polled: a load in another test file of this process may hold a service for a moment (and stop it after).
  await expect.poll(() => esbuildChildren().filter((pid) => !before.has(pid))).toEqual([]);
});

it("names the file each project specifier resolves to, aliases included, and still does when a module imports an asset", async () => {
  const dir = tempProject({
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~lib/*": ["bot/lib/*"] } } }),
    "bot/tools/a.ts": 'import { helper } from "../lib/helper.js";\nimport { other } from "~lib/other";\nimport { z } from "zod";\nexport default { description: "a", execute: () => helper() + other + String(z) };\n',
    "bot/tools/b.ts": 'import { helper } from "../lib/helper.js";\nimport prompt from "./prompt.md";\nexport default { description: prompt, execute: () => helper() };\n',
    "bot/tools/prompt.md": "A prompt.\n",
    "bot/lib/helper.ts": "export const helper = () => 1;\n",
    "bot/lib/other.ts": "export const other = 2;\n",
  });
  const a = path.join(dir, "bot/tools/a.ts");
  const b = path.join(dir, "bot/tools/b.ts");
  const linked = await scanImports(dir, [a]);
  expect(Object.fromEntries(linked!.specifiers.get(a)!)).toEqual({ "../lib/helper.js": path.join(dir, "bot/lib/helper.ts"), "~lib/other": path.join(dir, "bot/lib/other.ts") });
  // The asset fails esbuild's link (no loader for .md): the edges come from the resolving scan.
  const withAsset = await scanImports(dir, [a, b]);
  expect(Object.fromEntries(withAsset!.specifiers.get(b)!)).toEqual({ "../lib/helper.js": path.join(dir, "bot/lib/helper.ts") });
  expect([...withAsset!.imports.get(a)!].sort()).toEqual([path.join(dir, "bot/lib/helper.ts"), path.join(dir, "bot/lib/other.ts")]);
});
