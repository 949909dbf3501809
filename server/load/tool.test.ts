import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ToolContext } from "../authoring/tools.ts";
import { DefinitionError } from "./definition-error.ts";
import { loadTool } from "./tool.ts";

const ctx = {} as ToolContext;

function definitionError(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error("expected a DefinitionError");
}

describe("loadTool", () => {
  const inspect = defineTool({
    description: "Inspect a PR.",
    inputSchema: z.object({ prUrl: z.string().url().describe("The PR URL"), depth: z.number().int().default(1) }),
    execute: async ({ prUrl, depth }) => ({ prUrl, depth }),
  });

  it("converts a zod schema to JSON Schema for the model (input shape, descriptions kept)", () => {
    const tool = loadTool("inspect_pr", inspect, { file: "bot/tools/inspect_pr.ts" });
    expect(tool.inputJsonSchema).toMatchObject({
      type: "object",
      properties: { prUrl: { type: "string", format: "uri", description: "The PR URL" }, depth: { type: "integer", default: 1 } },
      required: ["prUrl"],
    });
    expect(tool).toMatchObject({ name: "inspect_pr", execution: "server", source: "authored", file: "bot/tools/inspect_pr.ts" });
  });

  it("validates input with zod, naming the failing field, and returns the parsed value", () => {
    const tool = loadTool("inspect_pr", inspect);
    expect(tool.parseInput({ prUrl: "not a url" })).toEqual({ ok: false, message: "prUrl: Invalid URL" });
    expect(tool.parseInput({ prUrl: "https://github.com/acme/checkout/pull/42" })).toEqual({
      ok: true,
      value: { prUrl: "https://github.com/acme/checkout/pull/42", depth: 1 },
    });
    const nested = loadTool("n", defineTool({ description: "n", inputSchema: z.object({ items: z.array(z.object({ id: z.string() })) }), execute: () => 1 }));
    expect(nested.parseInput({ items: [{ id: 1 }] })).toMatchObject({ ok: false, message: expect.stringMatching(/^items\.0\.id: /) });
  });

  it("validates a plain JSON Schema input with ajv (formats included), naming the field, and gives the model the schema as is", () => {
    const schema = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        since: { type: "string", format: "date" },
        owner: { type: "object", properties: { email: { type: "string", format: "email" } }, additionalProperties: false },
        limit: { type: "integer", default: 10 },
        state: { enum: ["open", "closed"] },
      },
      required: ["query"],
    };
    const tool = loadTool("search", { description: "Search", inputSchema: schema, execute: () => [] });
    expect(tool.inputJsonSchema).toBe(schema);
    expect(tool.parseInput({ query: "bug", since: "2025-02-30" })).toEqual({ ok: false, message: 'since: must match format "date"' });
    expect(tool.parseInput({ since: "2025-01-06", owner: { email: "nobody", login: "x" }, state: "merged" })).toEqual({
      ok: false,
      message: 'query: is required; owner.login: is not allowed; owner.email: must match format "email"; state: must be one of "open", "closed"',
    });
    // Defaults are applied, as zod applies them; the caller's object is left alone.
    const input = { query: "bug" };
    expect(tool.parseInput(input)).toEqual({ ok: true, value: { query: "bug", limit: 10 } });
    expect(input).toEqual({ query: "bug" });
    expect(tool.parseInput("text")).toEqual({ ok: false, message: "input must be a JSON object" });
  });

  it("describes a JSON Schema union failure by its closest alternative", () => {
    const tool = loadTool("ticket", {
      description: "Ticket",
      inputSchema: {
        type: "object",
        oneOf: [
          { properties: { action: { const: "comment" }, text: { type: "string" } }, required: ["action", "text"] },
          { properties: { action: { const: "close" }, reason: { type: "string" } }, required: ["action"] },
        ],
      },
      execute: () => 1,
    });
    expect(tool.parseInput({ action: "comment", text: 3 })).toEqual({ ok: false, message: "text: must be string" });
    expect(tool.parseInput({ action: "close" })).toMatchObject({ ok: true });
  });

  it("refuses a JSON Schema ajv cannot compile, naming the tool", () => {
    const error = definitionError(() =>
      loadTool("search", { description: "Search", inputSchema: { type: "object", properties: { q: { type: "strng" } } }, execute: () => 1 }),
    );
    expect(error.code).toBe("invalid_input_schema");
    expect(error.message).toMatch(/^inputSchema of tool "search" is not a valid JSON Schema: schema is invalid: data\/properties\/q\/type must be equal to one of the allowed values/);
  });

  it("takes a z.discriminatedUnion input: an object schema for the model, validated by branch", () => {
    const tool = loadTool(
      "ticket",
      defineTool({
        description: "Ticket",
        inputSchema: z.discriminatedUnion("action", [
          z.object({ action: z.literal("comment"), text: z.string().describe("The comment") }),
          z.object({ action: z.literal("close") }),
        ]),
        execute: async (input) => input.action,
      }),
    );
    expect(tool.inputJsonSchema).toMatchObject({
      type: "object",
      oneOf: [{ properties: { action: { const: "comment" }, text: { type: "string", description: "The comment" } } }, { properties: { action: { const: "close" } } }],
    });
    expect(tool.parseInput({ action: "comment" })).toMatchObject({ ok: false, message: expect.stringMatching(/^text: /) });
    expect(tool.parseInput({ action: "close" })).toEqual({ ok: true, value: { action: "close" } });
    expect(definitionError(() => loadTool("u", defineTool({ description: "u", inputSchema: z.union([z.string(), z.number()]), execute: () => 1 }))).message).toMatch(
      /must describe an object/,
    );
  });

  it("gives a tool without inputSchema an empty object schema; no input means {}", () => {
    const tool = loadTool("ping", { description: "Ping", execute: () => "pong" });
    expect(tool.inputJsonSchema).toEqual({ type: "object", properties: {} });
    expect(tool.parseInput(undefined)).toEqual({ ok: true, value: {} });
  });

  it("rejects an inputSchema that is neither zod nor a JSON Schema object", () => {
    expect(definitionError(() => loadTool("x", { description: "x", inputSchema: "string", execute: () => 1 }))).toMatchObject({
      code: "invalid_input_schema",
      message: "inputSchema is neither a zod schema nor a JSON Schema object",
    });
    expect(definitionError(() => loadTool("x", { description: "x", inputSchema: z.string(), execute: () => 1 })).message).toMatch(
      /must describe an object/,
    );
    expect(definitionError(() => loadTool("x", { description: "x", inputSchema: { type: "array" }, execute: () => 1 })).code).toBe(
      "invalid_input_schema",
    );
  });

  it("rejects definitions it cannot run", () => {
    expect(definitionError(() => loadTool("x", { description: "x" })).message).toMatch(/execute/);
    expect(definitionError(() => loadTool("x", { execute: () => 1 })).message).toMatch(/description/);
    expect(definitionError(() => loadTool("x", { description: "x", execution: "cloud", execute: () => 1 })).message).toMatch(/execution/);
    expect(definitionError(() => loadTool("x", { description: "x", effect: "delete", execute: () => 1 })).message).toMatch(/effect/);
    expect(definitionError(() => loadTool("x", { description: "x", outputSchema: {}, execute: () => 1 })).message).toMatch(/outputSchema/);
    for (const timeoutMs of [0, -5, Number.NaN, "60s"]) {
      expect(definitionError(() => loadTool("x", { description: "x", timeoutMs, execute: () => 1 })).message).toMatch(/timeoutMs must be a positive number/);
    }
  });

  it("keeps the tool's time limit (Infinity for none)", () => {
    expect(loadTool("x", { description: "x", timeoutMs: 5000, execute: () => 1 }).timeoutMs).toBe(5000);
    expect(loadTool("x", { description: "x", timeoutMs: Number.POSITIVE_INFINITY, execute: () => 1 }).timeoutMs).toBe(Number.POSITIVE_INFINITY);
    expect(loadTool("x", { description: "x", execute: () => 1 }).timeoutMs).toBeUndefined();
  });

  it("normalises effect, needsApproval and dryRunResult", async () => {
    // No effect declared: a write, marked as the default, so dry runs never run it.
    const plain = loadTool("p", { description: "p", execute: () => 1 });
    expect([plain.effect({}), plain.effectLabel, plain.effectIsDefault, await plain.needsApproval({}, ctx), plain.needsApprovalLabel]).toEqual([
      "write",
      "write",
      true,
      false,
      false,
    ]);
    expect(loadTool("r", { description: "r", effect: "read", execute: () => 1 })).not.toHaveProperty("effectIsDefault");

    const write = loadTool("w", { description: "w", effect: "write", needsApproval: true, dryRunResult: () => ({ dry: true }), execute: () => 1 });
    expect(write.effectIsDefault).toBeUndefined();
    expect([write.effect({}), write.effectLabel, await write.needsApproval({}, ctx), write.needsApprovalLabel]).toEqual(["write", "write", true, true]);
    expect(write.dryRunResult?.({})).toEqual({ dry: true });

    const dynamic = loadTool(
      "d",
      defineTool({
        description: "d",
        inputSchema: z.object({ action: z.enum(["comment", "close"]) }),
        effect: ({ action }) => (action === "close" ? "write" : "read"),
        needsApproval: async ({ action }) => action === "close",
        execute: () => 1,
      }),
    );
    expect(dynamic.effectLabel).toBe("dynamic");
    expect(dynamic.needsApprovalLabel).toBe("dynamic");
    expect([dynamic.effect({ action: "comment" }), dynamic.effect({ action: "close" })]).toEqual(["read", "write"]);
    expect([await dynamic.needsApproval({ action: "comment" }, ctx), await dynamic.needsApproval({ action: "close" }, ctx)]).toEqual([false, true]);

    const throwing = loadTool("t", {
      description: "t",
      effect: () => {
        throw new Error("?");
      },
      execute: () => 1,
    });
    expect(throwing.effect({})).toBe("write");
  });

  it("validates the return value against outputSchema", async () => {
    const tool = loadTool(
      "o",
      defineTool({ description: "o", outputSchema: z.object({ count: z.number() }), execute: async () => ({ count: "many" }) as never }),
    );
    await expect(tool.execute({}, ctx)).rejects.toThrow("o returned a value that does not match its outputSchema: count:");
    const ok = loadTool("o", defineTool({ description: "o", outputSchema: z.object({ count: z.number() }), execute: () => ({ count: 3 }) }));
    expect(await ok.execute({}, ctx)).toEqual({ count: 3 });
  });
});
