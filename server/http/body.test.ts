import { expect, it } from "vitest";
import { z } from "zod";
import { BdkError } from "../protocol/errors.ts";
import { MAX_BODY_NESTING, readBodyText, readJsonBody } from "./body.ts";

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

const jsonRequest = (text: string) => new Request("http://x/v1/tools/echo", { method: "POST", body: text });

it("refuses a body nested 100,000 levels deep with a 400 saying so, and takes one at the limit (brackets in strings do not count)", async () => {
  const deep = `{"input": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  const refused = await readJsonBody(jsonRequest(deep), z.object({ input: z.unknown() })).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(BdkError);
  expect((refused as BdkError).status).toBe(400);
  expect((refused as BdkError).message).toBe(`The request body nests arrays and objects more than ${MAX_BODY_NESTING} levels deep.`);

  const atLimit = `{"input": ${"[".repeat(MAX_BODY_NESTING - 1)}"[[[\\\"{{"${"]".repeat(MAX_BODY_NESTING - 1)}}`;
  const body = await readJsonBody(jsonRequest(atLimit), z.object({ input: z.unknown() }));
  expect(JSON.stringify(body.input).length).toBeGreaterThan(2 * MAX_BODY_NESTING);
});
