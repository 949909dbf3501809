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
  const value = text.trim() === "" ? {} : parseJsonText(text);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BdkError("invalid_request", formatIssues(parsed.error));
  return parsed.data;
}

/**
 * Deeper than this, a body is refused before it is parsed: no request needs
 * it, and every later step that walks a value (schema checks, storing it as
 * JSON, a tool's own code) would recurse once per level.
 */
export const MAX_BODY_NESTING = 512;

/** How deeply `text`'s arrays and objects nest, counted in one pass (brackets inside strings do not count); stops past `max`. */
function nestingOver(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* backslash: the next character is escaped */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) depth--;
  }
  return false;
}

/** A request body's JSON, or a 400 saying why not (not JSON, or nested past `MAX_BODY_NESTING`). */
export function parseJsonText(text: string): unknown {
  if (nestingOver(text, MAX_BODY_NESTING)) {
    throw new BdkError("invalid_request", `The request body nests arrays and objects more than ${MAX_BODY_NESTING} levels deep.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BdkError("invalid_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(limit: number): BdkError {
  return new BdkError("payload_too_large", `The request body is larger than ${limit} bytes.`);
}
