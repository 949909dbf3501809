import { describe, expect, it } from "vitest";
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
    expect(exampleFromSchema(schema)).toEqual({ customerEmail: "someone@example.com", question: "", retries: 3, nested: { on: false } });
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
