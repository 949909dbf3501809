/** Test helpers for the built-in tools: a temp workspace and a ToolContext without host services. */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolContext } from "../../authoring/tools.ts";

export function toolContext(workspaceDir: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    session: { id: "ses_test" },
    now: () => new Date(),
    workspaceDir,
    abortSignal: new AbortController().signal,
    // File and shell tools never touch artifacts or host services; a call would fail loudly.
    artifacts: undefined as unknown as ToolContext["artifacts"],
    host: undefined as unknown as ToolContext["host"],
    ...overrides,
  };
}

/** A fresh real directory (symlinks in the temp root resolved) and its removal. */
export function tempDir(prefix = "bdk-tools-"): { dir: string; remove(): void } {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
