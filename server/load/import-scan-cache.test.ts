import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { scanImports, type ImportScan } from "./import-graph.ts";
import { ImportScanCache } from "./import-scan-cache.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";

const cacheDirs: string[] = [];
afterAll(() => {
  removeTempProjects();
  for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
});

function freshCache(salt = "kit 1"): { cache: ImportScanCache; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bdk-scan-cache-"));
  cacheDirs.push(dir);
  return { cache: new ImportScanCache(dir, salt), dir };
}

const edgesOf = (scan: ImportScan | undefined, file: string) => [...(scan?.imports.get(file) ?? [])];

function project() {
  const dir = tempProject({
    "bot/tools/a.ts": 'import { helper } from "../lib/helper.js";\nexport default { description: "a", execute: () => helper() };\n',
    "bot/lib/helper.ts": "export const helper = () => 1;\n",
    "bot/lib/other.ts": "export const other = 2;\n",
  });
  return { dir, tool: path.join(dir, "bot/tools/a.ts") };
}

it("gives the kept scan of an unchanged project, and not for other entry files or another kit", async () => {
  const { dir, tool } = project();
  const { cache, dir: cacheDir } = freshCache();
  const scanned = await scanImports(dir, [tool], cache);
  expect(readdirSync(cacheDir)).toHaveLength(1);
  const kept = cache.read(dir, [tool]);
  expect(kept).toEqual(scanned);
  expect(edgesOf(kept, tool)).toEqual([path.join(dir, "bot/lib/helper.ts")]);
  expect(new ImportScanCache(cacheDir, "kit 2").read(dir, [tool])).toBeUndefined();
  expect(cache.read(dir, [tool, path.join(dir, "bot/tools/b.ts")])).toBeUndefined();
});

it("scans again after an edit: an import added to a module the tool imports is seen", async () => {
  const { dir, tool } = project();
  const { cache } = freshCache();
  await scanImports(dir, [tool], cache);
  expect(cache.read(dir, [tool])).toBeDefined();
  writeFileSync(path.join(dir, "bot/lib/helper.ts"), 'import { other } from "./other.js";\nexport const helper = () => other;\n');
  expect(cache.read(dir, [tool])).toBeUndefined();
  const rescanned = await scanImports(dir, [tool], cache);
  expect(edgesOf(rescanned, path.join(dir, "bot/lib/helper.ts"))).toEqual([path.join(dir, "bot/lib/other.ts")]);
});

it("scans again when a file added beside the modules changes what a specifier names", async () => {
  const { dir, tool } = project();
  const { cache } = freshCache();
  await scanImports(dir, [tool], cache);
  expect(cache.read(dir, [tool])).toBeDefined();
  // `../lib/helper.js` names helper.ts until a helper.js exists.
  writeFileSync(path.join(dir, "bot/lib/helper.js"), "export const helper = () => 3;\n");
  expect(cache.read(dir, [tool])).toBeUndefined();
  const rescanned = await scanImports(dir, [tool], cache);
  expect(edgesOf(rescanned, tool)).toEqual([path.join(dir, "bot/lib/helper.js")]);
});
