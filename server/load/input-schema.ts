/**
 * Tool input schemas: a zod schema (validated before `execute`, converted to
 * JSON Schema for the model) or a plain JSON Schema object (passed to the model
 * as is). The conversion runs through the schema's own zod copy when it can,
 * so descriptions registered on that copy are kept.
 */
import { createRequire } from "node:module";
import { toJSONSchema } from "zod/v4/core";
import type { ZodLike } from "../authoring/tools.ts";
import { checkSchema, type SchemaCheck } from "../authoring/validate-schema.ts";
import { DefinitionError } from "./definition-error.ts";

export interface CompiledInputSchema {
  kind: "zod" | "json-schema" | "none";
  jsonSchema: Record<string, unknown>;
  parse(input: unknown): SchemaCheck;
}

export function isZodLike(value: unknown): value is ZodLike {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function";
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const JSON_SCHEMA_OPTIONS = { target: "draft-7", io: "input", unrepresentable: "any" } as const;

/** zod 4 (classic method or core function), else zod 3 through the AI SDK's converter. */
export function zodToJsonSchema(schema: ZodLike): Record<string, unknown> {
  const withMethod = schema as unknown as { toJSONSchema?: (options: object) => Record<string, unknown> };
  if (typeof withMethod.toJSONSchema === "function") return withMethod.toJSONSchema(JSON_SCHEMA_OPTIONS);
  if ("_zod" in schema) return toJSONSchema(schema as never, JSON_SCHEMA_OPTIONS) as Record<string, unknown>;
  // zod 3 has no converter of its own; the AI SDK bundles one (loaded only when a project brings zod 3).
  const { zodSchema } = createRequire(import.meta.url)("ai") as { zodSchema(schema: unknown): { jsonSchema: Record<string, unknown> } };
  return zodSchema(schema).jsonSchema;
}

function requireObjectType(jsonSchema: Record<string, unknown>): void {
  const type = jsonSchema.type;
  if (type !== undefined && type !== "object") {
    throw new DefinitionError("invalid_input_schema", `inputSchema must describe an object (it describes ${JSON.stringify(type)})`, "Wrap the fields in z.object({ ... }).");
  }
}

function parseAnyObject(input: unknown): SchemaCheck {
  return isPlainObject(input) ? { ok: true, value: input } : { ok: false, message: "input must be a JSON object" };
}

export function compileInputSchema(schema: unknown): CompiledInputSchema {
  if (schema === undefined) return { kind: "none", jsonSchema: { type: "object", properties: {} }, parse: parseAnyObject };
  if (isZodLike(schema)) {
    let jsonSchema: Record<string, unknown>;
    try {
      jsonSchema = zodToJsonSchema(schema);
    } catch (error) {
      throw new DefinitionError("invalid_input_schema", `inputSchema cannot be converted to JSON Schema: ${(error as Error).message}`);
    }
    requireObjectType(jsonSchema);
    return { kind: "zod", jsonSchema, parse: (input) => checkSchema(schema, input) };
  }
  if (isPlainObject(schema)) {
    requireObjectType(schema);
    return { kind: "json-schema", jsonSchema: schema, parse: parseAnyObject };
  }
  throw new DefinitionError(
    "invalid_input_schema",
    "inputSchema is neither a zod schema nor a JSON Schema object",
    'Use z.object({ ... }) or a JSON Schema like { type: "object", properties: { ... } }.',
  );
}
