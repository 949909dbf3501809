import { describe, expect, it } from "vitest";
import { eventStream } from "./ndjson.ts";

describe("eventStream keepalives", () => {
  it("sends the keepalive's line while it has one, else a bare newline, also when reading it fails", async () => {
    const answers: Array<() => Promise<string | undefined>> = [
      async () => '{"type":"stream.keepalive","turnId":"turn_1"}\n',
      async () => undefined,
      async () => {
        throw new Error("database gone");
      },
    ];
    let stopped = false;
    const body = eventStream({
      subscribe: async (deliver) => {
        deliver('{"index":0}\n');
        return () => (stopped = true);
      },
      keepaliveMs: 5,
      keepalive: () => (answers.shift() ?? (async () => undefined))(),
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    while (chunks.length < 4) chunks.push(decoder.decode((await reader.read()).value));
    await reader.cancel();
    expect(chunks).toEqual(['{"index":0}\n', '{"type":"stream.keepalive","turnId":"turn_1"}\n', "\n", "\n"]);
    expect(stopped).toBe(true);
  });
});
