import { describe, expect, it } from "vitest";
import { modelEnvelope, modelToolName, toolAllowed } from "./connection-tools.ts";

describe("connection tools", () => {
  it("names tools <connection>__<tool> within what providers accept", () => {
    expect(modelToolName("linear", "create_issue")).toBe("linear__create_issue");
    expect(modelToolName("fs", "read.file v2")).toBe("fs__read_file_v2");
    const long = modelToolName("a-very-long-connection-name", "and_an_even_longer_tool_name_that_goes_on_and_on");
    expect(long).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(long).not.toBe(modelToolName("a-very-long-connection-name", "and_an_even_longer_tool_name_that_goes_on_and_on_2"));
  });

  it("applies include, then exclude", () => {
    expect(toolAllowed({ command: "x" }, "any")).toBe(true);
    expect(toolAllowed({ command: "x", include: ["a", "b"] }, "c")).toBe(false);
    expect(toolAllowed({ command: "x", include: ["a", "b"], exclude: ["b"] }, "b")).toBe(false);
    expect(toolAllowed({ command: "x", exclude: ["b"] }, "a")).toBe(true);
  });

  it("turns MCP content into text and image parts the harness reads", () => {
    expect(
      modelEnvelope({
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///a.txt", text: "file text" } },
          { type: "resource_link", uri: "file:///b.txt", name: "b" },
          { type: "audio", data: "BBBB", mimeType: "audio/wav" },
        ],
        isError: true,
      }),
    ).toEqual({
      content: [
        { type: "text", text: "hi" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "file text" },
        { type: "text", text: "[resource file:///b.txt]" },
        { type: "text", text: "[audio audio/wav]" },
      ],
      isError: true,
    });
    expect(modelEnvelope({ content: [], structuredContent: { total: 3 } })).toEqual({
      content: [{ type: "text", text: '{"total":3}' }],
      isError: false,
    });
  });
});
