/**
 * Imports `evals/**\/*.eval.ts` and `evals/evals.config.ts` and expands them
 * into runnable cases (spec: evals.md "Files and ids").
 */
import { kindOf } from "../authoring/brand.ts";
import type { EvalConfigDefinition, EvalDefinition } from "../authoring/evals.ts";
import type { ProjectManifest } from "../discover/manifest.ts";
import { defaultExport } from "./importer.ts";
import { importDefinition, importFile, type LoadContext } from "./context.ts";
import type { LoadedEvalCase, LoadedEvals } from "./types.ts";

const CASE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Cases of one `defineEval`; problems are reported on its file. */
function expand(ctx: LoadContext, id: string, file: string, definition: EvalDefinition): LoadedEvalCase[] {
  const hasTest = typeof definition.test === "function";
  const hasCases = definition.cases !== undefined;
  if (hasTest === hasCases) {
    ctx.diagnostics.error("invalid_eval", `eval "${id}" needs exactly one of test or cases (it has ${hasTest ? "both" : "neither"})`, { file });
    return [];
  }
  const common = {
    file,
    description: definition.description,
    tags: Array.isArray(definition.tags) ? definition.tags.map(String) : [],
    iterations: Number.isInteger(definition.iterations) && definition.iterations! > 0 ? definition.iterations! : 1,
    timeoutMs: definition.timeoutMs,
  };
  if (hasTest) return [{ id, ...common, test: definition.test! }];

  if (!Array.isArray(definition.cases)) {
    ctx.diagnostics.error("invalid_eval", `eval "${id}": cases must be a list of { id, test }`, { file });
    return [];
  }
  const cases: LoadedEvalCase[] = [];
  const seen = new Set<string>();
  for (const evalCase of definition.cases) {
    if (typeof evalCase?.id !== "string" || !CASE_ID.test(evalCase.id)) {
      ctx.diagnostics.error("invalid_eval", `eval "${id}": case id ${JSON.stringify(evalCase?.id)} must be one path segment`, { file });
      continue;
    }
    if (seen.has(evalCase.id)) {
      ctx.diagnostics.error("duplicate_eval_case", `eval "${id}": case id "${evalCase.id}" is used twice`, { file });
      continue;
    }
    seen.add(evalCase.id);
    if (typeof evalCase.test !== "function") {
      ctx.diagnostics.error("invalid_eval", `eval "${id}/${evalCase.id}" needs a test function`, { file });
      continue;
    }
    cases.push({
      ...common,
      id: `${id}/${evalCase.id}`,
      description: evalCase.description ?? common.description,
      timeoutMs: evalCase.timeoutMs ?? common.timeoutMs,
      test: evalCase.test,
    });
  }
  return cases;
}

async function loadEvalFile(ctx: LoadContext, id: string, file: string): Promise<LoadedEvalCase[]> {
  const module = await importFile(ctx, file);
  if (!module) return [];
  const { value } = defaultExport(module);
  if (Array.isArray(value) && value.length > 0 && value.every((item) => kindOf(item) === "eval")) {
    return value.flatMap((definition, index) => expand(ctx, `${id}/${String(index).padStart(4, "0")}`, file, definition as EvalDefinition));
  }
  if (kindOf(value) === "eval") return expand(ctx, id, file, value as EvalDefinition);
  ctx.diagnostics.error("wrong_export", "must default-export defineEval(...) (or an array of them)", { file });
  return [];
}

export async function loadEvals(ctx: LoadContext, manifest: ProjectManifest): Promise<LoadedEvals> {
  const evals: LoadedEvals = { configFile: manifest.evalsConfigFile, cases: [] };
  if (manifest.evalsConfigFile) {
    const config = await importDefinition(ctx, manifest.evalsConfigFile, { kinds: ["eval-config"], helper: "defineEvalConfig(...)" });
    if (config) evals.config = config as EvalConfigDefinition;
  }
  for (const entry of manifest.evals) evals.cases.push(...(await loadEvalFile(ctx, entry.name, entry.file)));
  return evals;
}
