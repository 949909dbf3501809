import type { z } from "zod";
import { formatIssues } from "../authoring/validate-schema.ts";
import { BdkError } from "../protocol/errors.ts";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Reads the body up to `limit` bytes; past it, 413 without reading the rest. */
export async function readBodyText(request: Request, limit = DEFAULT_BODY_LIMIT): Promise<string> {
  return (await readBodyBytes(request, limit)).toString("utf8");
}

/** The raw bytes (what webhook signatures are computed over), up to `limit`; past it, 413 and the stream is cancelled. */
export async function readBodyBytes(request: Request, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: cancelling one branch of a teed body (a cloned request) settles only once the other branch is cancelled too.
      reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body against a schema; the error message names the field. */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S, limit?: number): Promise<z.output<S>> {
  const text = await readBodyText(request, limit);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new BdkError("invalid_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BdkError("invalid_request", formatIssues(parsed.error));
  return parsed.data;
}

function tooLarge(limit: number): BdkError {
  return new BdkError("payload_too_large", `The request body is larger than ${limit} bytes.`);
}
