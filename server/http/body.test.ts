import { expect, it } from "vitest";
import { readBodyText } from "./body.ts";

/** A streamed (chunked) body of `chunks` × 256 KiB, as Node hands a request without content-length. */
function streamedRequest(chunks: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ === chunks) controller.close();
      else controller.enqueue(new Uint8Array(256 * 1024));
    },
  });
  return new Request("http://x/v1/channels/c/route", { method: "POST", body, duplex: "half" } as RequestInit);
}

it("refuses an oversized streamed body of a cloned request with payload_too_large (a tee branch does not stall it)", async () => {
  const request = streamedRequest(8);
  await expect(readBodyText(request.clone())).rejects.toMatchObject({ code: "payload_too_large" });
});

it("reads a streamed body within the limit", async () => {
  expect((await readBodyText(streamedRequest(2))).length).toBe(512 * 1024);
});
