import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_ROOT } from "./testing/temp-project.ts";
import { defaultTranspileCacheDir, TranspileCache, type TranspileInput } from "./transpile-cache.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function cacheDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bdk-transpile-cache-"));
  dirs.push(dir);
  return dir;
}

/** A stand-in for Babel that says what it was given, and counts its calls. */
function counting() {
  const calls: string[] = [];
  const transpile = (input: TranspileInput) => {
    calls.push(input.source);
    return { code: `/* from ${input.filename} */ ${input.source.toUpperCase()}` };
  };
  return { calls, transpile };
}

function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

it("keys entries by content: the same text is not transpiled twice, a changed text is, whatever the mtime says", () => {
  const dir = cacheDir();
  const { calls, transpile } = counting();
  const first = new TranspileCache({ dir, salt: "kit 1" });
  expect(first.transform({ source: "export const a = 1;", filename: "/p/a.ts", ts: true }, transpile).code).toBe("/* from /p/a.ts */ EXPORT CONST A = 1;");
  // Another process (a fresh cache object) with the same text at the same path: a hit.
  const second = new TranspileCache({ dir, salt: "kit 1" });
  expect(second.transform({ source: "export const a = 1;", filename: "/p/a.ts", ts: true }, transpile).code).toBe("/* from /p/a.ts */ EXPORT CONST A = 1;");
  expect(second.stats).toEqual({ hits: 1, misses: 0 });
  // The same text at another path is transpiled for that path (the output holds its import.meta paths).
  expect(second.transform({ source: "export const a = 1;", filename: "/q/a.ts", ts: true }, transpile).code).toBe("/* from /q/a.ts */ EXPORT CONST A = 1;");
  expect(second.stats).toEqual({ hits: 1, misses: 1 });
  // An edit within the same second (same mtime granularity) is a new key.
  second.transform({ source: "export const a = 2;", filename: "/p/a.ts", ts: true }, transpile);
  // Other options, another kit version or another extension are other keys too.
  second.transform({ source: "export const a = 1;", filename: "/p/a.ts", ts: false }, transpile);
  new TranspileCache({ dir, salt: "kit 2" }).transform({ source: "export const a = 1;", filename: "/p/a.ts", ts: true }, transpile);
  second.transform({ source: "export const a = 1;", filename: "/p/a.tsx", ts: true }, transpile);
  expect(calls).toHaveLength(6);
});

it("ignores a corrupt entry (truncated, rewritten by hand) and rewrites it", () => {
  const dir = cacheDir();
  const { calls, transpile } = counting();
  const input = { source: "export default 42;", filename: "/p/x.ts" };
  new TranspileCache({ dir, salt: "s" }).transform(input, transpile);
  const [entry] = entries(dir);
  for (const damage of [(text: string) => text.slice(0, text.length - 3), () => "", (text: string) => text.replace("42", "43"), () => "not an entry"]) {
    writeFileSync(entry!, damage(readFileSync(entry!, "utf8")));
    const cache = new TranspileCache({ dir, salt: "s" });
    expect(cache.transform(input, transpile).code).toBe("/* from /p/x.ts */ EXPORT DEFAULT 42;");
    expect(cache.stats).toEqual({ hits: 0, misses: 1 });
  }
  expect(calls).toHaveLength(5);
  const healed = new TranspileCache({ dir, salt: "s" });
  healed.transform(input, transpile);
  expect(healed.stats).toEqual({ hits: 1, misses: 0 });
});

it("does not store a failed transform", () => {
  const dir = cacheDir();
  const cache = new TranspileCache({ dir, salt: "s" });
  cache.transform({ source: "export const = ;" }, () => ({ code: "", error: new Error("Unexpected token") }));
  expect(entries(dir)).toEqual([]);
});

it("prunes the least recently used entries beyond its bound", () => {
  const dir = cacheDir();
  const { transpile } = counting();
  const source = (index: number) => `export const value${index} = "${"x".repeat(1000)}";`;
  const filler = new TranspileCache({ dir, salt: "s", maxBytes: Number.MAX_SAFE_INTEGER });
  for (let index = 0; index < 20; index++) filler.transform({ source: source(index) }, transpile);
  // Entry 0 was used last week, the others an hour ago: it goes first.
  const week = Date.now() / 1000 - 7 * 86_400;
  const hour = Date.now() / 1000 - 3_600;
  for (const entry of entries(dir)) utimesSync(entry, hour, hour);
  const oldest = entries(dir).find((entry) => readFileSync(entry, "utf8").includes("VALUE0 "));
  utimesSync(oldest!, week, week);
  new TranspileCache({ dir, salt: "s", maxBytes: 10_000 }).transform({ source: source(20) }, transpile);
  const kept = entries(dir);
  expect(kept.length).toBeLessThan(21);
  expect(kept.reduce((sum, entry) => sum + readFileSync(entry).length, 0)).toBeLessThanOrEqual(10_000);
  expect(kept).not.toContain(oldest);
});

it("holds in memory only what the latest load transpiled ahead: repeated reloads of an edited project do not grow it", async () => {
  const cache = new TranspileCache({ dir: cacheDir(), salt: "s" });
  const ahead = async (input: TranspileInput) => ({ code: input.source.toUpperCase() });
  for (let reload = 0; reload < 5; reload++) {
    // Each reload (a save in `bdk dev`): a.ts and b.ts edited, a.ts imported, b.ts not (its importer failed first).
    const a = { source: `export const a = ${reload};`, filename: "/p/a.ts" };
    const b = { source: `export const b = ${reload};`, filename: "/p/b.ts" };
    await cache.fillAhead([a, b], ahead);
    expect(cache.transform(a, () => ({ code: "not ahead" })).code).toBe(a.source.toUpperCase());
    expect(cache.heldAhead).toBe(1);
  }
  // A load of the project without b.ts (removed) keeps nothing of it.
  await cache.fillAhead([{ source: "export const a = 5;", filename: "/p/a.ts" }], ahead);
  expect(cache.heldAhead).toBe(1);
  expect(cache.transform({ source: "export const a = 5;", filename: "/p/a.ts" }, () => ({ code: "not ahead" })).code).toBe("EXPORT CONST A = 5;");
  expect(cache.heldAhead).toBe(0);
  expect(cache.stats).toEqual({ hits: 0, misses: 11 });
});

it("is shared safely by processes storing the same entries at once: every entry verifies, none is left half-written", async () => {
  const dir = cacheDir();
  const script = path.join(dir, "..", `${path.basename(dir)}-race.ts`);
  dirs.push(script);
  writeFileSync(
    script,
    `import { TranspileCache } from ${JSON.stringify(path.join(KIT_ROOT, "server/load/transpile-cache.ts"))};
let wrong = 0;
for (let round = 0; round < 40; round++) {
  const cache = new TranspileCache({ dir: ${JSON.stringify(dir)}, salt: "race" });
  for (let index = 0; index < 25; index++) {
    const source = "export const v" + index + " = " + "1".repeat(20000) + ";";
    const code = cache.transform({ source }, (input) => ({ code: input.source.toUpperCase() })).code;
    if (code !== source.toUpperCase()) wrong++;
  }
}
console.log(JSON.stringify({ wrong }));
`,
  );
  const run = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: KIT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exited ${code}`))));
    });
  expect(await Promise.all([run(), run(), run()])).toEqual(Array(3).fill(JSON.stringify({ wrong: 0 })));
  const files = entries(dir);
  expect(files.filter((file) => file.endsWith(".tmp"))).toEqual([]);
  expect(files).toHaveLength(25);
  const reader = new TranspileCache({ dir, salt: "race" });
  for (let index = 0; index < 25; index++) reader.transform({ source: `export const v${index} = ${"1".repeat(20000)};` }, () => ({ code: "" }));
  expect(reader.stats).toEqual({ hits: 25, misses: 0 });
}, 60_000);

it("lives under XDG_CACHE_HOME, else ~/.cache", () => {
  expect(defaultTranspileCacheDir({ XDG_CACHE_HOME: "/var/cache/me" })).toBe("/var/cache/me/bdk/transpiled");
  expect(defaultTranspileCacheDir({ XDG_CACHE_HOME: "relative" })).toBe(path.join(os.homedir(), ".cache", "bdk", "transpiled"));
});
