import Ajv from "ajv";
import addFormats from "ajv-formats";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleFromSchema, firstRequiredStringField, schemaFields } from "./json-schema.ts";

const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    customerEmail: { type: "string", format: "email" },
    question: { type: "string", minLength: 1 },
    priority: { type: "string", enum: ["low", "high"] },
    tags: { type: "array", items: { type: "string" } },
    retries: { type: "integer", default: 3 },
    nested: { anyOf: [{ type: "null" }, { type: "object", properties: { on: { type: "boolean" } }, required: ["on"] }] },
  },
  required: ["customerEmail", "question", "nested"],
};

describe("json-schema helpers", () => {
  it("builds an example with required fields, defaults and typed placeholders", () => {
    expect(exampleFromSchema(schema)).toEqual({ customerEmail: "someone@example.com", question: "question", retries: 3, nested: { on: false } });
  });

  it("lists fields with types and required flags", () => {
    expect(schemaFields(schema).map((field) => `${field.name}:${field.type}:${field.required}`)).toEqual([
      "customerEmail:string (email):true",
      "question:string:true",
      'priority:"low" | "high":false',
      "tags:string[]:false",
      "retries:integer:false",
      "nested:object:true",
    ]);
  });

  it("finds the first required string field", () => {
    expect(firstRequiredStringField(schema)).toBe("customerEmail");
    expect(firstRequiredStringField({ type: "object", properties: { n: { type: "number" } }, required: ["n"] })).toBeUndefined();
    expect(firstRequiredStringField(undefined)).toBeUndefined();
  });
});

/** Schemas whose naive example (empty strings, no items, zero) would be refused. */
const tricky: Record<string, Record<string, unknown>> = {
  "minLength and maxLength": { type: "object", properties: { title: { type: "string", minLength: 12, maxLength: 14 }, code: { type: "string", maxLength: 3 } }, required: ["title", "code"] },
  "minItems of objects": {
    type: "object",
    properties: { lines: { type: "array", minItems: 2, items: { type: "object", properties: { sku: { type: "string", minLength: 1 }, qty: { type: "integer", minimum: 1 } }, required: ["sku", "qty"] } } },
    required: ["lines"],
  },
  "unique items": { type: "object", properties: { tags: { type: "array", items: { type: "string" }, minItems: 3, uniqueItems: true }, ns: { type: "array", items: { type: "integer", minimum: 1 }, minItems: 3, uniqueItems: true }, picks: { type: "array", items: { enum: ["a", "b"] }, minItems: 2, uniqueItems: true } }, required: ["tags", "ns", "picks"] },
  "numeric bounds": {
    type: "object",
    properties: {
      positive: { type: "number", exclusiveMinimum: 0 },
      count: { type: "integer", minimum: 2.5 },
      negative: { type: "integer", maximum: -3 },
      step: { type: "number", minimum: 1.1, multipleOf: 0.25 },
      capped: { type: "integer", exclusiveMaximum: -1 },
      negativeStep: { type: "integer", maximum: -3, multipleOf: 2 },
    },
    required: ["positive", "count", "negative", "step", "capped", "negativeStep"],
  },
  "enums and consts": { type: "object", properties: { level: { enum: ["high", "low"] }, kind: { const: "refund" }, n: { type: "integer", enum: [7, 8] } }, required: ["level", "kind", "n"] },
  "required nested objects, nullable": {
    type: "object",
    properties: {
      customer: { anyOf: [{ type: "null" }, { type: "object", properties: { address: { type: "object", properties: { zip: { type: "string", minLength: 5 } }, required: ["zip"] } }, required: ["address"] }] },
    },
    required: ["customer"],
    additionalProperties: false,
  },
  "formats": {
    type: "object",
    properties: { site: { type: "string", format: "uri" }, at: { type: "string", format: "date-time" }, id: { type: "string", format: "uuid" }, day: { type: "string", format: "date" }, host: { type: "string", format: "hostname" } },
    required: ["site", "at", "id", "day", "host"],
  },
  "refs and allOf": {
    type: "object",
    definitions: { money: { type: "object", properties: { amount: { type: "integer", minimum: 1 }, currency: { enum: ["EUR", "USD"] } }, required: ["amount", "currency"] } },
    allOf: [{ properties: { total: { $ref: "#/definitions/money" } }, required: ["total"] }, { properties: { note: { type: "string", minLength: 3 } }, required: ["note"] }],
  },
  "tuple": { type: "array", items: [{ type: "string", minLength: 2 }, { type: "integer", minimum: 10 }], minItems: 2 },
  "required name without a property": { type: "object", required: ["anything"], additionalProperties: { type: "integer", minimum: 4 } },
};

describe("exampleFromSchema gives a valid example", () => {
  it("within bounds a tab can build, however large minLength and minItems are", () => {
    const example = exampleFromSchema({
      type: "object",
      properties: { text: { type: "string", minLength: 1e12 }, rows: { type: "array", items: { type: "integer" }, minItems: 1e12 } },
      required: ["text", "rows"],
    }) as { text: string; rows: unknown[] };
    expect(example.text.length).toBe(10_000);
    expect(example.rows).toHaveLength(10_000);
  });

  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  it.each(Object.entries(tricky))("%s", (_name, schema) => {
    const example = exampleFromSchema(schema);
    const validate = ajv.compile(schema);
    expect(validate(example), JSON.stringify({ example, errors: validate.errors })).toBe(true);
  });

  it("for what zod reports as JSON Schema (draft 2020-12), as channel and tool schemas are", () => {
    const ajv2020 = addFormats(new Ajv2020({ strict: false }));
    const body = z.object({
      prUrl: z.url(),
      reviewers: z.array(z.object({ login: z.string().min(2), weight: z.number().positive() })).min(1),
      priority: z.enum(["p0", "p1"]),
      summary: z.string().min(20).max(200),
      options: z.object({ draft: z.boolean(), labels: z.array(z.string()).min(2) }),
      retries: z.number().int().min(1).max(5).optional(),
    });
    const schema = z.toJSONSchema(body) as Record<string, unknown>;
    const example = exampleFromSchema(schema) as Record<string, unknown>;
    const validate = ajv2020.compile(schema);
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(body.safeParse(example).success).toBe(true);
    // Fields are named by what they hold.
    expect(example.summary).toMatch(/^summary/);
    expect(Object.keys(example).sort()).toEqual(["options", "prUrl", "priority", "reviewers", "summary"]);
  });
});
