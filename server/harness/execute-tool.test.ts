import { describe, expect, it } from "vitest";
import type { ToolContext } from "../authoring/tools.ts";
import { loadTool } from "../load/tool.ts";
import { executeTool, toModelOutput } from "./execute-tool.ts";

const png = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

describe("toModelOutput", () => {
  it("reads a text envelope as text, and an envelope with an image as content parts", () => {
    expect(toModelOutput({ output: { content: [{ type: "text", text: "3 open incidents" }] }, isError: false })).toEqual({
      type: "text",
      value: "3 open incidents",
    });
    expect(toModelOutput({ output: { content: [{ type: "text", text: "Page:" }, png] }, isError: false })).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Page:" },
        { type: "image-data", data: "iVBORw0KGgo=", mediaType: "image/png" },
      ],
    });
  });

  it("gives an error envelope as text, its images as placeholders", () => {
    expect(toModelOutput({ output: { content: [{ type: "text", text: "render failed" }, png], isError: true }, isError: true })).toEqual({
      type: "error-text",
      value: "render failed\n[image image/png]",
    });
  });

  it("treats anything that is not a well-formed envelope as JSON", () => {
    expect(toModelOutput({ output: { content: ["line 1", "line 2"] }, isError: false })).toEqual({
      type: "json",
      value: { content: ["line 1", "line 2"] },
    });
    expect(toModelOutput({ output: { content: [{ type: "image", data: "x" }] }, isError: false })).toEqual({
      type: "json",
      value: { content: [{ type: "image", data: "x" }] },
    });
    expect(toModelOutput({ output: { rate: 23 }, isError: false })).toEqual({ type: "json", value: { rate: 23 } });
  });
});

describe("executeTool", () => {
  const ctx = (dryRun: boolean) => ({ session: { id: "ses_1", dryRun } }) as unknown as ToolContext;

  it("reports a returned { content, isError: true } as an error, whatever else it carries, like a throw", async () => {
    const mcpStyle = loadTool("lookup", {
      description: "Lookup",
      effect: "read",
      execute: () => ({ content: [{ type: "text", text: "rate limited" }, { type: "resource", resource: { uri: "x:1" } }], isError: true, structuredContent: { retryAfter: 30 } }),
    });
    const outcome = await executeTool(mcpStyle, {}, ctx(false));
    expect(outcome.isError).toBe(true);
    expect(toModelOutput(outcome)).toEqual({ type: "error-text", value: "rate limited" });
    const thrown = await executeTool(loadTool("boom", { description: "Boom", effect: "read", execute: () => { throw new Error("rate limited"); } }), {}, ctx(false));
    expect([thrown.isError, toModelOutput(thrown)]).toEqual([true, { type: "error-text", value: "rate limited" }]);
  });

  it("never runs a tool without a declared effect in a dry run", async () => {
    let ran = false;
    const post = loadTool("post", { description: "Post", execute: () => (ran = true) });
    expect((await executeTool(post, {}, ctx(true))).output).toEqual({ dryRun: true });
    const withResult = loadTool("post", { description: "Post", dryRunResult: () => ({ posted: false }), execute: () => (ran = true) });
    expect((await executeTool(withResult, {}, ctx(true))).output).toEqual({ posted: false });
    expect(ran).toBe(false);
    expect((await executeTool(post, {}, ctx(false))).output).toBe(true);
  });
});
