/**
 * Reading the JSON Schemas that `/v1/info` reports (tool inputs, channel
 * bodies): a pre-filled example value and a flat field list for display.
 */
export type Schema = Record<string, unknown>;

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

function asSchema(value: unknown): Schema | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : undefined;
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  if (typeof type === "string") return type;
  if (asSchema(schema.properties)) return "object";
  return undefined;
}

/** anyOf/oneOf (e.g. optional or nullable wrappers): the first non-null branch. */
function unwrap(schema: Schema): Schema {
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches) && branches.length) {
    const branch = branches.map(asSchema).find((b) => b && b.type !== "null");
    if (branch) return unwrap({ ...schema, anyOf: undefined, oneOf: undefined, ...branch });
  }
  return schema;
}

function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? (schema.required.filter((r) => typeof r === "string") as string[]) : [];
}

/** A value that satisfies the schema's shape: required fields (and any with defaults), typed placeholders. */
export function exampleFromSchema(input: unknown, depth = 0): unknown {
  const raw = asSchema(input);
  if (!raw || depth > 8) return {};
  const schema = unwrap(raw);
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case "object": {
      const properties = asSchema(schema.properties) ?? {};
      const required = requiredOf(schema);
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        const prop = asSchema(property);
        if (required.includes(name) || (prop && "default" in prop)) out[name] = exampleFromSchema(prop, depth + 1);
      }
      return out;
    }
    case "string":
      return stringExample(schema);
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    default:
      return {};
  }
}

function stringExample(schema: Schema): string {
  switch (schema.format) {
    case "uri":
    case "url":
      return "https://example.com";
    case "email":
      return "someone@example.com";
    case "date-time":
      return new Date().toISOString();
    case "date":
      return new Date().toISOString().slice(0, 10);
    default:
      return "";
  }
}

export function schemaFields(input: unknown): SchemaField[] {
  const raw = asSchema(input);
  if (!raw) return [];
  const schema = unwrap(raw);
  const properties = asSchema(schema.properties);
  if (!properties) return [];
  const required = requiredOf(schema);
  return Object.entries(properties).map(([name, property]) => {
    const prop = unwrap(asSchema(property) ?? {});
    const base = typeOf(prop) ?? "any";
    const type = base === "array" ? `${typeOf(unwrap(asSchema(prop.items) ?? {})) ?? "any"}[]` : Array.isArray(prop.enum) ? prop.enum.map((v) => JSON.stringify(v)).join(" | ") : base;
    return {
      name,
      type: typeof prop.format === "string" ? `${type} (${prop.format})` : type,
      required: required.includes(name),
      description: typeof prop.description === "string" ? prop.description : undefined,
    };
  });
}

/** The field a one-line slash command argument fills. */
export function firstRequiredStringField(input: unknown): string | undefined {
  return schemaFields(input).find((field) => field.required && field.type.startsWith("string"))?.name;
}
