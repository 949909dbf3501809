import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { KIT_DIR } from "../server/kit-dir.ts";

export { KIT_DIR };
const SOURCE_DIRS = ["app", "components"];
/** Files outside those folders that the Next.js bundle includes. */
const SOURCE_FILES = ["next.config.mjs", "package.json", "postcss.config.mjs", "tailwind.config.ts", "web/route-adapter.ts"];
const BUILD_ID = path.join(KIT_DIR, ".next", "BUILD_ID");
const STAMP = path.join(KIT_DIR, ".next", "bdk-source-hash");

/**
 * A checkout holds the web app's sources and builds it itself; the installed
 * package ships only the prebuilt `.next` (Next.js will not compile an app
 * that lives under node_modules).
 */
export function hasWebSources(): boolean {
  return existsSync(path.join(KIT_DIR, "app"));
}

/** A hash of the web app's sources: a build is reused only while they are unchanged. */
export function sourceHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(full.slice(KIT_DIR.length)).update(readFileSync(full));
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(KIT_DIR, dir));
  for (const file of SOURCE_FILES) {
    const full = path.join(KIT_DIR, file);
    if (existsSync(full)) hash.update(file).update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

export function isBuilt(): boolean {
  if (!existsSync(BUILD_ID)) return false;
  return !hasWebSources() || (existsSync(STAMP) && readFileSync(STAMP, "utf8") === sourceHash());
}

/** Builds the app once (first start, or after the kit's web sources changed), saying so. */
export async function ensureBuilt(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
  if (isBuilt()) return;
  if (!hasWebSources()) {
    throw new Error(`This copy of BDK has no web build (${path.dirname(BUILD_ID)} is missing): reinstall the package.`);
  }
  log("Building the web app (first start after install or an update; about a minute)...");
  await buildWebApp();
  log("Build finished.");
}

export async function buildWebApp(): Promise<void> {
  const hash = sourceHash();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], {
      cwd: KIT_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed:\n${output.slice(-4000)}`))));
  });
  writeFileSync(STAMP, hash);
}
