import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { scanImports, type ImportScan } from "./import-graph.ts";
import { ImportScanCache } from "./import-scan-cache.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";
import { TranspileCache } from "./transpile-cache.ts";

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

/** Dates everything under `dir` an hour back, not through links (the kit's node_modules): files saved before the run, as a developer's are. */
function savedEarlier(dir: string): void {
  const hourAgo = Date.now() / 1000 - 3_600;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) savedEarlier(file);
    else if (entry.isFile()) utimesSync(file, hourAgo, hourAgo);
  }
  utimesSync(dir, hourAgo, hourAgo);
}

function project(extra: Record<string, string> = {}, options: { nodeModules?: boolean } = {}) {
  const dir = tempProject(
    {
      "bot/tools/a.ts": 'import { helper } from "../lib/helper.js";\nexport default { description: "a", execute: () => helper() };\n',
      "bot/lib/helper.ts": "export const helper = () => 1;\n",
      "bot/lib/other.ts": "export const other = 2;\n",
      ...extra,
    },
    options,
  );
  savedEarlier(dir);
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

it("scans again when a dependency changed: a lockfile written or edited, an installed package's package.json", async () => {
  for (const lockfile of ["package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"]) {
    const { dir, tool } = project({ "package.json": '{ "dependencies": { "left-pad": "^1.0.0" } }' });
    const { cache } = freshCache();
    await scanImports(dir, [tool], cache);
    expect(cache.read(dir, [tool])).toBeDefined();
    writeFileSync(path.join(dir, lockfile), "left-pad 1.3.0\n");
    expect(cache.read(dir, [tool]), `${lockfile} written`).toBeUndefined();
    savedEarlier(dir);
    await scanImports(dir, [tool], cache);
    expect(cache.read(dir, [tool])).toBeDefined();
    writeFileSync(path.join(dir, lockfile), "left-pad 1.4.0\n");
    expect(cache.read(dir, [tool]), `${lockfile} edited`).toBeUndefined();
  }
  const { dir, tool } = project(
    { "package.json": '{ "dependencies": { "left-pad": "^1.0.0" } }', "node_modules/left-pad/package.json": '{ "name": "left-pad", "version": "1.3.0" }' },
    { nodeModules: false },
  );
  const { cache } = freshCache();
  await scanImports(dir, [tool], cache);
  expect(cache.read(dir, [tool])).toBeDefined();
  writeFileSync(path.join(dir, "node_modules/left-pad/package.json"), '{ "name": "left-pad", "version": "1.4.0" }');
  expect(cache.read(dir, [tool])).toBeUndefined();
});

it("scans again when a nested tsconfig.json changes its paths: the alias names the new file", async () => {
  const { dir, tool } = project({
    "bot/tsconfig.json": '{ "compilerOptions": { "paths": { "~lib/*": ["./lib/*"] } } }',
    "bot/tools/a.ts": 'import { helper } from "~lib/helper.js";\nexport default { description: "a", execute: () => helper() };\n',
    "bot/lib/next/helper.ts": "export const helper = () => 2;\n",
  });
  const { cache } = freshCache();
  expect(edgesOf(await scanImports(dir, [tool], cache), tool)).toEqual([path.join(dir, "bot/lib/helper.ts")]);
  expect(cache.read(dir, [tool])).toBeDefined();
  writeFileSync(path.join(dir, "bot/tsconfig.json"), '{ "compilerOptions": { "paths": { "~lib/*": ["./lib/next/*"] } } }');
  expect(cache.read(dir, [tool])).toBeUndefined();
  expect(edgesOf(await scanImports(dir, [tool], cache), tool)).toEqual([path.join(dir, "bot/lib/next/helper.ts")]);
});

it("keeps the scan of a project whose tsconfig extends others, and scans again when a config of the chain changes", async () => {
  const { dir, tool } = project(
    {
      "tsconfig.json": '{ "extends": ["./configs/base", "@acme/tsconfig/strict.json"] }',
      "configs/base.json": '{\n  // the aliases\n  "compilerOptions": { "baseUrl": "..", "paths": { "~lib/*": ["./bot/lib/*"] } },\n}',
      "node_modules/@acme/tsconfig/package.json": '{ "name": "@acme/tsconfig" }',
      "node_modules/@acme/tsconfig/strict.json": '{ "compilerOptions": { "strict": true } }',
      "bot/tools/a.ts": 'import { helper } from "~lib/helper.js";\nexport default { description: "a", execute: () => helper() };\n',
      "bot/lib/next/helper.ts": "export const helper = () => 2;\n",
    },
    { nodeModules: false },
  );
  const { cache } = freshCache();
  expect(edgesOf(await scanImports(dir, [tool], cache), tool)).toEqual([path.join(dir, "bot/lib/helper.ts")]);
  expect(cache.read(dir, [tool])).toBeDefined();
  writeFileSync(path.join(dir, "node_modules/@acme/tsconfig/strict.json"), '{ "compilerOptions": { "strict": false } }');
  expect(cache.read(dir, [tool]), "the package's config edited").toBeUndefined();
  savedEarlier(dir);
  await scanImports(dir, [tool], cache);
  expect(cache.read(dir, [tool])).toBeDefined();
  writeFileSync(path.join(dir, "configs/base.json"), '{ "compilerOptions": { "baseUrl": "..", "paths": { "~lib/*": ["./bot/lib/next/*"] } } }');
  expect(cache.read(dir, [tool]), "the relative config edited").toBeUndefined();
  expect(edgesOf(await scanImports(dir, [tool], cache), tool)).toEqual([path.join(dir, "bot/lib/next/helper.ts")]);
});

it("does not keep a scan when a file it read is edited while it runs: the next run sees the edit", async () => {
  const { dir, tool } = project();
  const helper = path.join(dir, "bot/lib/helper.ts");
  const cacheDir = freshCache().dir;
  // The edit lands after esbuild read the file and before the scan is stored.
  class EditedDuringScan extends ImportScanCache {
    override write(...args: Parameters<ImportScanCache["write"]>): void {
      writeFileSync(helper, 'import { other } from "./other.js";\nexport const helper = () => other;\n');
      super.write(...args);
    }
  }
  const scanned = await scanImports(dir, [tool], new EditedDuringScan(cacheDir, "kit 1"));
  expect(edgesOf(scanned, helper)).toEqual([]);
  const cache = new ImportScanCache(cacheDir, "kit 1");
  expect(cache.read(dir, [tool])).toBeUndefined();
  expect(edgesOf(await scanImports(dir, [tool], cache), helper)).toEqual([path.join(dir, "bot/lib/other.ts")]);
});

it("counts a read as a use when the cache folder is pruned: a scan read every run outlives one written later but not read", async () => {
  const transpiled = freshCache().dir;
  const scans = path.join(transpiled, "scans");
  const cache = new ImportScanCache(scans, "kit 1");
  const used = project();
  const unused = project();
  await scanImports(used.dir, [used.tool], cache);
  await scanImports(unused.dir, [unused.tool], cache);
  const [usedEntry, unusedEntry] = [used, unused].map(({ dir }) => readdirSync(scans).map((name) => path.join(scans, name)).find((file) => readFileSync(file, "utf8").includes(dir))!);
  const daysAgo = (days: number) => Date.now() / 1000 - days * 86_400;
  utimesSync(usedEntry!, daysAgo(10), daysAgo(10));
  utimesSync(unusedEntry!, daysAgo(5), daysAgo(5));
  expect(cache.read(used.dir, [used.tool])).toBeDefined();
  const scanBytes = statSync(usedEntry!).size + statSync(unusedEntry!).size;
  // A run storing a transpiled module prunes the folder (the scans within) to three quarters of this bound: one scan goes.
  new TranspileCache({ dir: transpiled, salt: "s", maxBytes: scanBytes }).transform({ source: "export const a = 1;" }, (input) => ({ code: input.source }));
  expect(readdirSync(scans).map((name) => path.join(scans, name))).toEqual([usedEntry]);
});
