import { describe, expect, it } from "vitest";
import { parseBlocks } from "./parse-blocks.ts";
import { parseInline, safeHref } from "./parse-inline.ts";

describe("parseBlocks", () => {
  it("reads headings, lists, fenced code, tables and paragraphs", () => {
    const blocks = parseBlocks(["# Title", "", "Some *text*.", "", "- one", "- two", "  continued", "", "1. first", "2. second", "", "```ts", "const a = 1;", "```", "", "| a | b |", "|---|--:|", "| 1 | 2 |"].join("\n"));
    expect(blocks.map((block) => block.kind)).toEqual(["heading", "paragraph", "list", "list", "code", "table"]);
    expect(blocks[2]).toMatchObject({ kind: "list", ordered: false, items: [[{ kind: "paragraph", text: "one" }], [{ kind: "paragraph", text: "two\ncontinued" }]] });
    expect(blocks[4]).toEqual({ kind: "code", lang: "ts", text: "const a = 1;" });
    expect(blocks[5]).toMatchObject({ header: ["a", "b"], align: [undefined, "right"], rows: [["1", "2"]] });
  });

  it("keeps an unclosed fence (still streaming) as code", () => {
    expect(parseBlocks("```\npartial")).toEqual([{ kind: "code", lang: "", text: "partial" }]);
  });
});

describe("parseInline", () => {
  it("reads code, emphasis and links; snake_case stays text", () => {
    expect(parseInline("use `x` **bold** and _em_ in snake_case_name [docs](https://a.b/c)")).toEqual([
      { kind: "text", text: "use " },
      { kind: "code", text: "x" },
      { kind: "text", text: " " },
      { kind: "strong", children: [{ kind: "text", text: "bold" }] },
      { kind: "text", text: " and " },
      { kind: "em", children: [{ kind: "text", text: "em" }] },
      { kind: "text", text: " in snake_case_name " },
      { kind: "link", href: "https://a.b/c", children: [{ kind: "text", text: "docs" }] },
    ]);
  });

  it("autolinks bare URLs without trailing punctuation", () => {
    expect(parseInline("see https://x.dev/a.")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", href: "https://x.dev/a", children: [{ kind: "text", text: "https://x.dev/a" }] },
      { kind: "text", text: "." },
    ]);
  });

  it("never links script URLs and leaves raw HTML as text", () => {
    expect(safeHref("javascript:alert(1)")).toBeUndefined();
    expect(parseInline("[x](javascript:alert(1))")).toEqual([{ kind: "text", text: "x" }, { kind: "text", text: ")" }]);
    expect(parseInline("<img src=x onerror=alert(1)>")).toEqual([{ kind: "text", text: "<img src=x onerror=alert(1)>" }]);
  });
});
