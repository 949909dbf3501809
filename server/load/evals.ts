/**
 * Imports `evals/**\/*.eval.ts` and `evals/evals.config.ts` and expands them
 * into runnable cases (spec: evals.md "Files and ids"). Every problem found
 * here has the `evals` scope: it stops `bdk eval`, never the agent.
 */
import { kindOf } from "../authoring/brand.ts";
import type { EvalConfigDefinition, EvalDefinition } from "../authoring/evals.ts";
import { DiagnosticList } from "../discover/diagnostics.ts";
import type { ProjectManifest } from "../discover/manifest.ts";
import { checkConfigFields, type Fields, positiveNumber, unknownKeys, wholeNumberAtLeast } from "./config-fields.ts";
import { defaultExport } from "./importer.ts";
import { checked, importDefinition, importFile, type LoadContext } from "./context.ts";
import { isPlainObject } from "./input-schema.ts";
import type { LoadedEvalCase, LoadedEvals } from "./types.ts";

const CASE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const positiveMs = positiveNumber("must be a positive number of milliseconds");

const CONFIG_FIELDS = "Fields: maxConcurrency, timeoutMs, judge: { model }.";

/** `defineEvalConfig(...)` or the plain object many projects export. */
const EVAL_CONFIG_FIELDS: Fields = {
  maxConcurrency: wholeNumberAtLeast(1, "must be at least 1"),
  timeoutMs: positiveMs,
  judge: { model: (value) => (typeof value === "string" && value.trim() ? undefined : "must be a model id") },
};

/** Cases of one `defineEval`; problems are reported on its file. */
function expand(ctx: LoadContext, id: string, file: string, definition: EvalDefinition): LoadedEvalCase[] {
  const hasTest = typeof definition.test === "function";
  const hasCases = definition.cases !== undefined;
  if (hasTest === hasCases) {
    ctx.diagnostics.error("invalid_eval", `eval "${id}" needs exactly one of test or cases (it has ${hasTest ? "both" : "neither"})`, { file });
    return [];
  }
  const timeouts = [definition.timeoutMs, ...(Array.isArray(definition.cases) ? definition.cases.map((evalCase) => evalCase?.timeoutMs) : [])];
  if (timeouts.some((value) => value !== undefined && positiveMs(value) !== undefined)) {
    ctx.diagnostics.error("invalid_eval", `eval "${id}": timeoutMs must be a positive number of milliseconds`, { file });
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

async function loadEvalConfig(ctx: LoadContext, file: string): Promise<EvalConfigDefinition | undefined> {
  const config = await importDefinition(ctx, file, {
    kinds: ["eval-config"],
    helper: "defineEvalConfig(...) or a plain object such as { maxConcurrency: 4 }",
    accept: isPlainObject,
  });
  if (config === undefined) return undefined;
  const usable = checked(ctx, file, () => checkConfigFields(EVAL_CONFIG_FIELDS, config, CONFIG_FIELDS));
  if (usable === undefined) return undefined;
  for (const key of unknownKeys(EVAL_CONFIG_FIELDS, config)) {
    ctx.diagnostics.warning("unknown_config_key", `"${key}" is not an eval config key; it is ignored`, {
      file,
      hint: CONFIG_FIELDS,
    });
  }
  return usable as EvalConfigDefinition;
}

/**
 * The project's eval cases and config. Their problems go to `ctx`'s list with
 * the `evals` scope, and every eval-scope problem of the project (discovery's
 * too) is kept on the result, where the runner refuses to start over them.
 */
export async function loadEvals(ctx: LoadContext, manifest: ProjectManifest): Promise<LoadedEvals> {
  const scoped: LoadContext = { ...ctx, diagnostics: new DiagnosticList() };
  const evals: LoadedEvals = { configFile: manifest.evalsConfigFile, cases: [], diagnostics: [] };
  if (manifest.evalsConfigFile) evals.config = await loadEvalConfig(scoped, manifest.evalsConfigFile);
  for (const entry of manifest.evals) evals.cases.push(...(await loadEvalFile(scoped, entry.name, entry.file)));
  ctx.diagnostics.items.push(...scoped.diagnostics.items.map((diagnostic) => ({ ...diagnostic, scope: "evals" as const })));
  evals.diagnostics = ctx.diagnostics.items.filter((diagnostic) => diagnostic.scope === "evals");
  return evals;
}
