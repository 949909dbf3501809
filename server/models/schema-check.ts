/**
 * A light JSON Schema check for the scripted model: enough to refuse a tool
 * call it knows would fail (missing required field, wrong primitive type,
 * value outside an enum) and say which field. The tool's own validator stays
 * the authority; this only keeps the scripted model from guessing.
 */

export interface ObjectSchema {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
}

/** A sentence naming the first problem, or undefined when the input looks valid. */
export function findSchemaProblem(schema: ObjectSchema, input: unknown): string | undefined {
  if (!isPlainObject(input)) return `the input must be a JSON object, got ${describeType(input)}`;
  for (const field of schema.required ?? []) {
    if (!(field in input) || input[field] === undefined) return `the required field "${field}" is missing`;
  }
  for (const [field, value] of Object.entries(input)) {
    const property = schema.properties?.[field];
    if (!isPlainObject(property)) continue;
    const problem = findValueProblem(property, value);
    if (problem) return `the field "${field}" ${problem}`;
  }
  return undefined;
}

/** Names of the top-level required fields whose schema accepts a string, in `required` order. */
export function requiredStringFields(schema: ObjectSchema): string[] {
  return (schema.required ?? []).filter((field) => {
    const property = schema.properties?.[field];
    return isPlainObject(property) && typesOf(property).includes("string");
  });
}

function findValueProblem(property: Record<string, unknown>, value: unknown): string | undefined {
  const types = typesOf(property);
  if (types.length > 0 && !types.some((type) => matchesType(type, value))) {
    return `must be ${types.map(withArticle).join(" or ")}, got ${describeType(value)}`;
  }
  const allowed = property.enum;
  if (Array.isArray(allowed) && !allowed.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return `must be one of ${allowed.map((option) => JSON.stringify(option)).join(", ")}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

function typesOf(property: Record<string, unknown>): string[] {
  const type = property.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === "string");
  return [];
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && Number.isInteger(value)) return "an integer";
  return withArticle(typeof value);
}

function withArticle(type: string): string {
  return type === "null" ? "null" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
