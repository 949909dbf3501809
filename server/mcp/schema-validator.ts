/**
 * The MCP SDK's JSON Schema validator, backed by the kit's one ajv module
 * (server/load/json-schema.ts): MCP tools' input and output schemas are
 * checked like authored tools' (same dialects, formats and messages naming
 * the field), two tools sharing an `$id` do not share a validator, and no
 * client builds an ajv instance of its own.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { compileJsonSchema } from "../load/json-schema.ts";

export const kitJsonSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const compiled = compileJsonSchema(schema as Record<string, unknown>);
    return (input) => {
      const checked = compiled.check(input);
      return checked.ok ? { valid: true, data: checked.value as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: checked.message };
    };
  },
};
