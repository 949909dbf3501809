/**
 * Writes a saved eval case under `evals/`: the name is a case id (path
 * segments of letters, digits, `.`, `_`, `-`), the file lands at
 * `evals/<name>.eval.ts` and nowhere else (not through `..`, an absolute
 * path or a symlinked folder), and an existing file is replaced only when
 * the caller says so.
 */
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BdkError } from "../protocol/errors.ts";

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `review/approved` → `review/approved`; a trailing `.eval.ts` is dropped. Throws `invalid_request` naming the problem. */
export function evalCaseName(raw: string): string {
  const name = raw.trim().replace(/\.eval\.ts$/, "");
  const segments = name.split("/");
  const bad = segments.find((segment) => !SEGMENT.test(segment) || segment.includes(".."));
  if (!name || bad !== undefined || name.length > 200) {
    throw new BdkError(
      "invalid_request",
      `name ${JSON.stringify(raw)} is not an eval case name: use letters, digits, ".", "_" and "-" in "/"-separated segments (e.g. "checkout/refund"); the file is written under evals/.`,
    );
  }
  return name;
}

function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/** Writes the file; returns its path relative to the project root (`evals/refund.eval.ts`). */
export function writeEvalCase(rootDir: string, name: string, text: string, options: { overwrite?: boolean } = {}): string {
  const evalsDir = path.join(rootDir, "evals");
  const file = path.join(evalsDir, `${evalCaseName(name)}.eval.ts`);
  mkdirSync(path.dirname(file), { recursive: true });
  // The folders exist now: resolve symlinks, so a link inside evals/ cannot carry the write elsewhere.
  const realEvals = realpathSync(evalsDir);
  const realParent = realpathSync(path.dirname(file));
  if (realParent !== realEvals && !isInside(realEvals, realParent)) {
    throw new BdkError("invalid_request", `evals/${name}.eval.ts would be written outside evals/ (a symlinked folder).`);
  }
  const relative = path.relative(rootDir, file).split(path.sep).join("/");
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(file);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile()) throw new BdkError("invalid_request", `${relative} exists and is not a regular file.`);
  try {
    // "wx" fails if the file appeared meanwhile: consent is never assumed.
    writeFileSync(file, text, { flag: options.overwrite ? "w" : "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new BdkError("already_exists", `${relative} already exists: send "overwrite": true to replace it.`, { file: relative });
  }
  return relative;
}
