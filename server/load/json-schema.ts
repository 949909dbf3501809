/**
 * JSON Schema validation with ajv (formats included): a schema is compiled
 * once, and a failure names the field the way zod's messages do
 * (`prUrl: must match format "uri"`).
 */
import { createRequire } from "node:module";
import type Ajv from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import type Ajv2019 from "ajv/dist/2019.js";
import type Ajv2020 from "ajv/dist/2020.js";
import type addFormats from "ajv-formats";
import type { SchemaCheck } from "../authoring/validate-schema.ts";

export interface CompiledJsonSchema {
  check(value: unknown): SchemaCheck;
}

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

const instances = new Map<string, AnyAjv>();

// ajv and its formats are loaded where the first JSON Schema is compiled, not on every start: most projects
// describe their tools with zod, and `bdk validate`/`serve` would pay for three ajv builds they never use.
// Its packages are CommonJS, so they load synchronously, as compiling a tool's schema must.
const require = createRequire(import.meta.url);
const defaultOf = <T>(module: { default?: T } | T): T => ((module as { default?: T }).default ?? module) as T;

function construct(dialect: "draft-07" | "2019-09" | "2020-12", options: object): AnyAjv {
  if (dialect === "2020-12") return new (defaultOf<typeof Ajv2020>(require("ajv/dist/2020.js")))(options);
  if (dialect === "2019-09") return new (defaultOf<typeof Ajv2019>(require("ajv/dist/2019.js")))(options);
  return new (defaultOf<typeof Ajv>(require("ajv")))(options);
}

function instance(dialect: "draft-07" | "2019-09" | "2020-12"): AnyAjv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    // strict: false because generated schemas carry keywords ajv does not know (`example`, `x-*`);
    // defaults are applied, as zod applies `.default()`.
    ajv = construct(dialect, { allErrors: true, strict: false, logger: false as const, useDefaults: true });
    defaultOf<typeof addFormats>(require("ajv-formats"))(ajv as Ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/**
 * Validators by dialect and schema text: the tools a helper gives the same
 * schema share one compile (ajv caches by object, and each tool's is its own).
 */
const compiledByText = new Map<string, ValidateFunction>();

/** The dialect `$schema` names; anything else (or none) is read as draft-07, the dialect models are given. */
function dialectOf(schema: Record<string, unknown>): "draft-07" | "2019-09" | "2020-12" {
  const id = typeof schema.$schema === "string" ? schema.$schema : "";
  if (id.includes("2020-12")) return "2020-12";
  if (id.includes("2019-09")) return "2019-09";
  return "draft-07";
}

/** Throws an Error saying what is wrong with the schema (ajv's own message) when it cannot be compiled. */
export function compileJsonSchema(schema: Record<string, unknown>): CompiledJsonSchema {
  const dialect = dialectOf(schema);
  // A `$schema` ajv has no meta-schema for (draft-04, a vendor URL) would fail the compile: check it as draft-07.
  const { $schema, ...rest } = schema;
  const usable = dialect === "draft-07" && $schema !== undefined && !String($schema).includes("draft-07") ? rest : schema;
  const text = `${dialect} ${JSON.stringify(usable)}`;
  let validate = compiledByText.get(text);
  if (!validate) {
    const ajv = instance(dialect);
    // Ajv registers a schema under its `$id`; generated schemas may share one, and each tool compiles its own.
    if (typeof usable.$id === "string") ajv.removeSchema(usable.$id);
    validate = ajv.compile(usable) as ValidateFunction;
    compiledByText.set(text, validate);
  }
  return {
    check(value) {
      // Defaults are written into the value: validate a copy, never the caller's object.
      const copy = structuredClone(value);
      return validate(copy) ? { ok: true, value: copy } : { ok: false, message: describeErrors(validate.errors ?? []) };
    },
  };
}

/** `a.0.b` from ajv's JSON Pointer `/a/0/b`. */
function fieldPath(pointer: string, child?: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (child !== undefined) parts.push(child);
  return parts.length > 0 ? parts.join(".") : "(root)";
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${fieldPath(error.instancePath, String(params.missingProperty))}: is required`;
    case "additionalProperties":
      return `${fieldPath(error.instancePath, String(params.additionalProperty))}: is not allowed`;
    case "enum":
      return `${fieldPath(error.instancePath)}: must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
    default:
      return `${fieldPath(error.instancePath)}: ${error.message ?? "is invalid"}`;
  }
}

/** A branch whose `const`/`enum` check failed (a discriminator) is one the value did not choose. */
function ruledOut(branch: ErrorObject[]): boolean {
  return branch.some((error) => error.keyword === "const" || error.keyword === "enum");
}

/**
 * One line for all failures. Of the alternatives an `anyOf`/`oneOf` tried,
 * only the one the value meant is described (the only one whose
 * discriminator matched, else the one with the fewest errors), the way zod
 * names the wrong field of a discriminated union's branch; when no
 * alternative stands out, the union's own error stands.
 */
function describeErrors(errors: ErrorObject[]): string {
  const excluded = new Set<ErrorObject>();
  const unions = errors.filter((error) => error.keyword === "anyOf" || error.keyword === "oneOf");
  for (const union of unions.sort((a, b) => a.schemaPath.length - b.schemaPath.length)) {
    if (excluded.has(union)) continue;
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const error of errors) {
      if (excluded.has(error) || !error.schemaPath.startsWith(prefix)) continue;
      const branch = error.schemaPath.slice(prefix.length).split("/")[0];
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const chosen = closestBranch([...branches.values()]);
    for (const branch of branches.values()) if (branch !== chosen) for (const error of branch) excluded.add(error);
    if (chosen) excluded.add(union);
  }
  return [...new Set(errors.filter((error) => !excluded.has(error)).map(describeError))].join("; ");
}

function closestBranch(branches: ErrorObject[][]): ErrorObject[] | undefined {
  const candidates = branches.filter((branch) => !ruledOut(branch));
  if (candidates.length === 0) return undefined;
  const fewest = Math.min(...candidates.map((branch) => branch.length));
  const closest = candidates.filter((branch) => branch.length === fewest);
  return closest.length === 1 ? closest[0] : undefined;
}
