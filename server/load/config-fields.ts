/**
 * Checks a config object (`bot/agent.ts`, `evals/evals.config.ts`) against a
 * zod object schema: a field of the wrong type is a `DefinitionError` that
 * names the field; keys the schema does not know are returned so the caller
 * warns about them instead of dropping them silently.
 */
import { z } from "zod";
import { formatIssues } from "../authoring/validate-schema.ts";
import { DefinitionError } from "./definition-error.ts";

/** Throws `DefinitionError` naming the first field of the wrong type (`concurrency.maxRunningTurns: ...`). */
export function checkConfigFields<T>(schema: z.ZodType, value: T, hint?: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DefinitionError("invalid_definition", formatIssues({ issues: result.error.issues.slice(0, 1) }), hint);
  return value;
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : undefined;
}

/** Dotted paths of the keys of `value` that `schema` does not declare (`runtime`, `local.foo`), at every object level. */
export function unknownKeys(schema: z.ZodType, value: unknown, prefix = ""): string[] {
  const shape = objectShape(schema);
  if (!shape || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = `${prefix}${key}`;
    const field = Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
    return field ? unknownKeys(field, inner, `${path}.`) : [path];
  });
}
