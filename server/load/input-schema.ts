/**
 * Tool input schemas: a zod schema (validated with zod, converted to JSON
 * Schema for the model) or a plain JSON Schema object (validated with ajv,
 * given to the model as is). Both are checked once, when the tool loads.
 */
import { createRequire } from "node:module";
import { toJSONSchema } from "zod/v4/core";
import type { ZodLike } from "../authoring/tools.ts";
import { checkSchema, type SchemaCheck } from "../authoring/validate-schema.ts";
import { DefinitionError } from "./definition-error.ts";
import { compileJsonSchema } from "./json-schema.ts";
import type { ProjectZod } from "./project-zod.ts";

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

export const JSON_SCHEMA_OPTIONS = { target: "draft-7", io: "input", unrepresentable: "any" } as const;

/**
 * zod 4 through the schema's own copy: its `toJSONSchema` method (zod 4.1+),
 * else the copy the project loaded it from (`project`: zod 4.0.x, zod 3.25's
 * `zod/v4`), else ours; zod 3 schemas through the AI SDK's zod 3 converter.
 * Descriptions live in the copy's registry, so only its own converter sees them.
 */
export function zodToJsonSchema(schema: ZodLike, project?: ProjectZod): Record<string, unknown> {
  const withMethod = schema as unknown as { toJSONSchema?: (options: object) => Record<string, unknown> };
  if (typeof withMethod.toJSONSchema === "function") return withMethod.toJSONSchema(JSON_SCHEMA_OPTIONS);
  if ("_zod" in schema) return (project?.converterFor(schema) ?? toJSONSchema)(schema as never, JSON_SCHEMA_OPTIONS) as Record<string, unknown>;
  // zod 3 has no converter of its own; the AI SDK bundles one (a port of zod-to-json-schema), loaded only for zod 3.
  const { zodSchema } = createRequire(import.meta.url)("ai") as { zodSchema(schema: unknown): { jsonSchema: Record<string, unknown> } };
  return zodSchema(schema).jsonSchema;
}

function describesObject(jsonSchema: Record<string, unknown>): boolean {
  if (jsonSchema.type !== undefined) return jsonSchema.type === "object";
  const union = jsonSchema.anyOf ?? jsonSchema.oneOf;
  return !Array.isArray(union) || union.every((branch) => isPlainObject(branch) && describesObject(branch));
}

function requireObject(jsonSchema: Record<string, unknown>): void {
  if (!describesObject(jsonSchema)) {
    const described = jsonSchema.type ?? "a union of non-objects";
    throw new DefinitionError("invalid_input_schema", `inputSchema must describe an object (it describes ${JSON.stringify(described)})`, "Wrap the fields in z.object({ ... }).");
  }
}

/** A union of objects (`z.discriminatedUnion`) gets `type: "object"` at the top: providers require it there. */
function withObjectType(jsonSchema: Record<string, unknown>): Record<string, unknown> {
  return jsonSchema.type === undefined ? { type: "object", ...jsonSchema } : jsonSchema;
}

function parseAnyObject(input: unknown): SchemaCheck {
  return isPlainObject(input) ? { ok: true, value: input } : { ok: false, message: "input must be a JSON object" };
}

export interface InputSchemaOptions {
  /** Names the tool in a schema error. */
  toolName?: string;
  /** The project's zod copies, for schemas made with a copy other than ours. */
  projectZod?: ProjectZod;
}

export function compileInputSchema(schema: unknown, options: InputSchemaOptions = {}): CompiledInputSchema {
  if (schema === undefined) return { kind: "none", jsonSchema: { type: "object", properties: {} }, parse: parseAnyObject };
  if (isZodLike(schema)) {
    let jsonSchema: Record<string, unknown>;
    try {
      jsonSchema = zodToJsonSchema(schema, options.projectZod);
    } catch (error) {
      throw new DefinitionError("invalid_input_schema", `inputSchema cannot be converted to JSON Schema: ${(error as Error).message}`);
    }
    requireObject(jsonSchema);
    return { kind: "zod", jsonSchema: withObjectType(jsonSchema), parse: (input) => checkSchema(schema, input) };
  }
  if (isPlainObject(schema)) {
    requireObject(schema);
    let compiled: ReturnType<typeof compileJsonSchema>;
    try {
      compiled = compileJsonSchema(schema);
    } catch (error) {
      const tool = options.toolName ? ` of tool "${options.toolName}"` : "";
      throw new DefinitionError("invalid_input_schema", `inputSchema${tool} is not a valid JSON Schema: ${(error as Error).message}`);
    }
    return { kind: "json-schema", jsonSchema: schema, parse: (input) => (isPlainObject(input) ? compiled.check(input) : parseAnyObject(input)) };
  }
  throw new DefinitionError(
    "invalid_input_schema",
    "inputSchema is neither a zod schema nor a JSON Schema object",
    'Use z.object({ ... }) or a JSON Schema like { type: "object", properties: { ... } }.',
  );
}
