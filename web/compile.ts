/**
 * Compiles the kit's TypeScript (cli/, server/, web/, the scaffold) to ES
 * modules and declarations in dist/, which the installed package runs and
 * user projects type-check against. Files that are not TypeScript (the SQL
 * migrations) are copied beside the compiled code, where it looks for them.
 */
import { spawn } from "node:child_process";
import { cpSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { KIT_DIR } from "../server/kit-dir.ts";

const DIST = path.join(KIT_DIR, "dist");
const COMPILED_DIRS = ["cli", "server", "web"];
/**
 * Dated when the compile started: bin/bdk.mjs in a checkout runs dist/ only
 * while no source under COMPILED_DIRS is newer (an edit since then runs the
 * sources through tsx instead).
 */
export const COMPILED_STAMP = path.join(DIST, "compiled-at");

function assetsUnder(dir: string): string[] {
  return readdirSync(path.join(KIT_DIR, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return assetsUnder(relative);
    return entry.name.endsWith(".ts") ? [] : [relative];
  });
}

export async function compileKit(): Promise<void> {
  const started = new Date();
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, "-p", path.join(KIT_DIR, "tsconfig.build.json")], { cwd: KIT_DIR, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p tsconfig.build.json failed:\n${output.slice(-4000)}`))));
  });
  for (const asset of COMPILED_DIRS.flatMap(assetsUnder)) cpSync(path.join(KIT_DIR, asset), path.join(DIST, asset));
  writeFileSync(COMPILED_STAMP, `${started.toISOString()}\n`);
  utimesSync(COMPILED_STAMP, started, started);
}
