/**
 * The field fixtures (`test/fixtures/field/`): bots written the way public
 * projects for the published kit write them. Each test works on a copy, with
 * its own state root, and drives the real `bdk` binary.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { copyProject } from "../../server/load/testing/temp-project.ts";
import { KIT_DIR } from "./bdk-server.ts";
import { runBdk, type ProcessResult } from "./run-process.ts";

export const FIELD_DIR = path.join(KIT_DIR, "test", "fixtures", "field");

export interface FieldProject {
  dir: string;
  stateRoot: string;
  /** `bdk <command> --dir <copy> [--state-root ...] <args>` on the scripted model. */
  bdk(command: string, args?: string[], env?: Record<string, string | undefined>): Promise<ProcessResult>;
}

const STATELESS = new Set(["validate", "info"]);

export function fieldProject(name: string): FieldProject {
  const dir = copyProject(path.join(FIELD_DIR, name));
  const stateRoot = mkdtempSync(path.join(tmpdir(), `bdk-field-${name}-`));
  return {
    dir,
    stateRoot,
    bdk: (command, args = [], env = {}) =>
      runBdk([command, "--dir", dir, ...(STATELESS.has(command) ? [] : ["--state-root", stateRoot]), ...args], { BDK_MODEL: "scripted", ...env }),
  };
}

/** The zod version a fixture installed (scripts/setup.sh --for-tests installs it from the fixture's lockfile). */
export function installedZod(name: string): string | undefined {
  const manifest = path.join(FIELD_DIR, name, "node_modules", "zod", "package.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : undefined;
}
