/**
 * A project's `.env` and `.env.local` files, read into the environment before
 * its agent loads, the way Next.js and Vite treat them: `.env.local` wins over
 * `.env`, and a variable already set in the environment wins over both. The
 * syntax is Node's own (`util.parseEnv`, what `node --env-file` reads), so a
 * file behaves the same under `bdk` and under `node --env-file`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

/** Highest precedence first. */
export const ENV_FILES = [".env.local", ".env"] as const;

/** Sets the files' variables that `env` lacks; returns the files it read (relative names). */
export function loadEnvFiles(projectDir: string, env: Record<string, string | undefined>): string[] {
  const loaded: string[] = [];
  for (const name of ENV_FILES) {
    const file = path.join(projectDir, name);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      // ENOTDIR: --dir names a file; discovery says so, in its own words.
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") continue;
      throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    for (const [key, value] of Object.entries(parseEnv(text))) {
      if (env[key] === undefined && value !== undefined) env[key] = value;
    }
    loaded.push(name);
  }
  return loaded;
}
