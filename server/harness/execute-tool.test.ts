import { describe, expect, it } from "vitest";
import { toModelOutput } from "./execute-tool.ts";

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
