/**
 * `evals/**\/*.eval.ts` at the project root (spec: evals.md "Files and ids"):
 * the id is the path under `evals/` without the suffix; `index.eval.ts` takes
 * its folder's id. `evals/evals.config.ts` is optional (most projects have
 * none): without it the runner uses its defaults. Every diagnostic here has
 * the `evals` scope, so it never keeps the agent from running.
 */
import path from "node:path";
import type { DiagnosticList } from "./diagnostics.ts";
import type { NamedFile } from "./manifest.ts";
import { listFilesRecursive, moduleStem } from "./paths.ts";

export const EVAL_SUFFIX = /\.eval\.(ts|mts|js|mjs)$/;

export function evalFileId(relativeToEvals: string): string {
  const withoutSuffix = relativeToEvals.replace(EVAL_SUFFIX, "");
  if (path.posix.basename(withoutSuffix) !== "index") return withoutSuffix;
  const folder = path.posix.dirname(withoutSuffix);
  return folder === "." ? "index" : folder;
}

export function discoverEvals(rootDir: string, diagnostics: DiagnosticList): { evals: NamedFile[]; evalsConfigFile?: string } {
  const evals: NamedFile[] = [];
  let evalsConfigFile: string | undefined;
  for (const relative of listFilesRecursive(path.join(rootDir, "evals"))) {
    const file = `evals/${relative}`;
    if (!relative.includes("/") && moduleStem(relative) === "evals.config") {
      if (evalsConfigFile) diagnostics.error("multiple_forms", `the eval config is defined twice: ${evalsConfigFile} and ${file}`, { file, scope: "evals" });
      else evalsConfigFile = file;
      continue;
    }
    if (!EVAL_SUFFIX.test(relative)) continue;
    const id = evalFileId(relative);
    const existing = evals.find((candidate) => candidate.name === id);
    if (existing) diagnostics.error("duplicate_name", `eval "${id}" is defined twice: ${existing.file} and ${file}`, { file, scope: "evals" });
    else evals.push({ name: id, file });
  }
  if (evals.length > 0 && !evalsConfigFile) {
    diagnostics.warning("missing_evals_config", "evals exist but evals/evals.config.ts does not; bdk eval uses its defaults", {
      file: "evals/evals.config.ts",
      hint: 'To choose the settings: export default defineEvalConfig({ maxConcurrency: 4 }) (import from "@cursor/bdk/evals").',
      scope: "evals",
    });
  }
  return { evals, evalsConfigFile };
}
