/**
 * Checks a config object (`bot/agent.ts`, `evals/evals.config.ts`) against a
 * table of its fields: a field of the wrong type is a `DefinitionError` that
 * names it (`concurrency.maxRunningTurns: must be at least 1`); keys the
 * table does not have are returned, so the caller warns about them instead
 * of dropping them silently. A table rather than zod: `validate` would
 * otherwise load the kit's zod just for this (about 50 ms of CPU).
 */
import { DefinitionError } from "./definition-error.ts";

/** The problem with a value, or undefined when it is fine. */
export type FieldCheck = (value: unknown) => string | undefined;

/** An object's fields; a nested `Fields` is an object field checked the same way. */
export interface Fields {
  [key: string]: FieldCheck | Fields;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const isString: FieldCheck = (value) => (typeof value === "string" ? undefined : "must be a string");
export const isBoolean: FieldCheck = (value) => (typeof value === "boolean" ? undefined : "must be true or false");

export function listOf(item: FieldCheck, problem: string): FieldCheck {
  return (value) => (Array.isArray(value) && value.every((element) => item(element) === undefined) ? undefined : problem);
}

export function wholeNumberAtLeast(min: number, belowMin: string): FieldCheck {
  return (value) => {
    if (typeof value !== "number" || !Number.isInteger(value)) return "must be a whole number";
    return value < min ? belowMin : undefined;
  };
}

export function positiveNumber(problem: string): FieldCheck {
  return (value) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? undefined : problem);
}

/** The first field of the wrong type, as `path: problem`; undefined fields are fine (every field is optional). */
function firstProblem(fields: Fields, value: Record<string, unknown>, prefix: string): string | undefined {
  for (const [key, check] of Object.entries(fields)) {
    const field = value[key];
    if (field === undefined) continue;
    const path = `${prefix}${key}`;
    if (typeof check === "function") {
      const problem = check(field);
      if (problem) return `${path}: ${problem}`;
    } else if (!isRecord(field)) {
      return `${path}: must be an object with ${Object.keys(check).join(", ")}`;
    } else {
      const problem = firstProblem(check, field, `${path}.`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Throws `DefinitionError` naming the first field of the wrong type. */
export function checkConfigFields<T>(fields: Fields, value: T, hint?: string): T {
  const problem = isRecord(value) ? firstProblem(fields, value, "") : "the config must be an object";
  if (problem) throw new DefinitionError("invalid_definition", problem, hint);
  return value;
}

/** Dotted paths of the keys of `value` that `fields` does not declare (`runtime`, `local.foo`), at every object level. */
export function unknownKeys(fields: Fields, value: unknown, prefix = ""): string[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = `${prefix}${key}`;
    const check = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
    if (check === undefined) return [path];
    return typeof check === "function" ? [] : unknownKeys(check, inner, `${path}.`);
  });
}
