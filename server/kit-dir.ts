/**
 * The kit's own folder: the one holding its package.json, docs/, templates/
 * and the web build. Run from sources this module is `server/kit-dir.ts`;
 * installed from the package it is `dist/server/kit-dir.js`. So the folder is
 * found by walking up to the nearest package.json, not by a fixed count of `..`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findKitDir(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`BDK cannot find its package.json above ${start}`);
  }
}

export const KIT_DIR = findKitDir(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the kit's folder. */
export function kitPath(...segments: string[]): string {
  return path.join(KIT_DIR, ...segments);
}

/** The kit's version, from its package.json. */
export function kitVersion(): string {
  return (JSON.parse(readFileSync(kitPath("package.json"), "utf8")) as { version: string }).version;
}
