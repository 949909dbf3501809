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

/**
 * A value valid against the schema, for a Try body or a slash command: every
 * required field (and any with a default) present, strings named after their
 * field and as long as `minLength` asks, numbers within their bounds, arrays
 * with `minItems` entries, enums and consts honoured, local `$ref`s followed.
 */
export function exampleFromSchema(input: unknown): unknown {
  const root = asSchema(input);
  return root ? exampleOf(root, { root, depth: 0, name: "value" }) : {};
}

interface ExampleScope {
  root: Schema;
  depth: number;
  /** The property (or item) being filled: string placeholders say which field they are. */
  name: string;
}

function exampleOf(raw: Schema, scope: ExampleScope): unknown {
  if (scope.depth > 12) return {};
  const schema = merged(unwrap(resolveRef(raw, scope.root)), scope.root);
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const inner = (name: string): ExampleScope => ({ ...scope, depth: scope.depth + 1, name });
  switch (typeOf(schema)) {
    case "object": {
      const properties = asSchema(schema.properties) ?? {};
      const required = requiredOf(schema);
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        const prop = asSchema(property);
        if (prop && (required.includes(name) || "default" in prop)) out[name] = exampleOf(prop, inner(name));
      }
      // Required names the properties do not describe: anything the rest of the schema allows.
      const extra = asSchema(schema.additionalProperties);
      for (const name of required) if (!(name in out)) out[name] = extra ? exampleOf(extra, inner(name)) : "";
      return out;
    }
    case "string":
      return stringExample(schema, scope.name);
    case "integer":
    case "number":
      return numberExample(schema, typeOf(schema) === "integer");
    case "boolean":
      return false;
    case "array":
      return arrayExample(schema, inner);
    case "null":
      return null;
    default:
      return {};
  }
}

/** `{ $ref: "#/definitions/x" }` (or `#/$defs/x`, `#`) → the schema it points at; other refs are left as they are. */
function resolveRef(schema: Schema, root: Schema, seen = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#") || seen > 16) return schema;
  let target: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    target = asSchema(target)?.[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  const found = asSchema(target);
  if (!found) return schema;
  const { $ref: _ref, ...rest } = schema;
  return resolveRef({ ...found, ...rest }, root, seen + 1);
}

/** `allOf` folded into one schema: properties and required lists joined, the tighter bounds kept by the later branch. */
function merged(schema: Schema, root: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...base } = schema;
  let out: Schema = base;
  for (const branch of allOf as unknown[]) {
    const part = asSchema(branch);
    if (!part) continue;
    const resolved = merged(unwrap(resolveRef(part, root)), root);
    out = {
      ...out,
      ...resolved,
      properties: { ...asSchema(out.properties), ...asSchema(resolved.properties) },
      required: [...requiredOf(out), ...requiredOf(resolved)],
    };
  }
  return out;
}

function stringExample(schema: Schema, name: string): string {
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
    case "time":
      return "12:00:00Z";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    case "hostname":
      return "example.com";
    case "ipv4":
      return "192.0.2.1";
    case "ipv6":
      return "2001:db8::1";
  }
  // The field's own name: the example says what goes where, and is as long as the schema asks.
  // Capped: a schema's minLength is the tool author's (or a model's) to set, and a billion must not hang the tab.
  const min = typeof schema.minLength === "number" ? Math.min(schema.minLength, MAX_EXAMPLE_SIZE) : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  const text = name.length >= min ? name : `${name} `.repeat(Math.ceil(min / (name.length + 1)));
  return text.slice(0, Math.max(min, Math.min(max, name.length)));
}

/** The longest string and array an example is made with, whatever minLength or minItems ask (past it, the example is not valid: it is shown, not sent). */
const MAX_EXAMPLE_SIZE = 10_000;

function numberExample(schema: Schema, integer: boolean): number {
  const step = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  const gap = integer ? 1 : (step ?? 1);
  let low = typeof schema.minimum === "number" ? schema.minimum : undefined;
  if (typeof schema.exclusiveMinimum === "number") low = Math.max(low ?? -Infinity, schema.exclusiveMinimum + gap);
  let high = typeof schema.maximum === "number" ? schema.maximum : undefined;
  if (typeof schema.exclusiveMaximum === "number") high = Math.min(high ?? Infinity, schema.exclusiveMaximum - gap);
  const belowZero = low === undefined && high !== undefined && high < 0;
  let value = low ?? (belowZero ? (high ?? 0) : 0);
  // Rounded away from the bound it came from: up from a minimum, down from a (negative) maximum.
  const round = belowZero ? Math.floor : Math.ceil;
  if (integer) value = round(value);
  if (step) value = round(value / step) * step;
  return value;
}

function arrayExample(schema: Schema, inner: (name: string) => ExampleScope): unknown[] {
  const min = typeof schema.minItems === "number" ? Math.min(schema.minItems, MAX_EXAMPLE_SIZE) : 0;
  // A tuple (`prefixItems`, or draft 4-7 `items: [...]`) fills its positions first.
  const tuple = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []).map(asSchema);
  const rest = Array.isArray(schema.items) ? asSchema(schema.additionalItems) : asSchema(schema.items);
  const out: unknown[] = [];
  for (let i = 0; i < tuple.length; i++) out.push(tuple[i] ? exampleOf(tuple[i]!, inner(`item ${i + 1}`)) : null);
  const item = rest ?? {};
  const choices = Array.isArray(unwrap(item).enum) ? (unwrap(item).enum as unknown[]) : undefined;
  for (let i = out.length; i < min; i++) {
    let value = choices && choices.length > i ? choices[i] : exampleOf(item, inner(`item ${i + 1}`));
    // Unique items: a repeated number counts up (strings are already numbered by their position).
    if (schema.uniqueItems && typeof value === "number") while (out.includes(value)) value += 1;
    out.push(value);
  }
  return out;
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
