import { describe, expect, it } from "vitest";
import { readNdjson } from "./ndjson.ts";

function responseOf(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body);
}

describe("readNdjson", () => {
  it("joins lines split across chunks and skips keepalive newlines", async () => {
    const values: unknown[] = [];
    await readNdjson(responseOf(['{"index":0}\n{"ind', 'ex":1}\n', "\n", "\n", '{"index":2}']), (value) => values.push(value));
    expect(values).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);
  });

  it("skips a malformed line and keeps reading", async () => {
    const values: unknown[] = [];
    await readNdjson(responseOf(['{"a":1}\nnot json\n{"a":2}\n']), (value) => values.push(value));
    expect(values).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("decodes multi-byte characters split between chunks", async () => {
    const bytes = new TextEncoder().encode('{"text":"héllo ✓"}\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 11));
        controller.enqueue(bytes.slice(11));
        controller.close();
      },
    });
    const values: unknown[] = [];
    await readNdjson(new Response(body), (value) => values.push(value));
    expect(values).toEqual([{ text: "héllo ✓" }]);
  });
});
