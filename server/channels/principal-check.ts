/**
 * Principals handed in by project code (`send({ auth })`, `receive`, a
 * GitHub hook's `{ auth }`) own the sessions they start: a malformed one is
 * refused with the field named, before anything is stored.
 */
import { z } from "zod";
import { formatIssues } from "../authoring/validate-schema.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";

const principalSchema = z.object({ type: z.enum(["user", "service", "app"]), id: z.string().min(1) });

/** `{ type, id }` copied out of `value` (extra fields dropped); `where` names the call, e.g. `send()`. */
export function checkPrincipal(value: unknown, where: string): Principal {
  const parsed = z.object({ auth: principalSchema }).safeParse({ auth: value });
  if (!parsed.success) {
    throw new BdkError("invalid_request", `${where}: ${formatIssues(parsed.error)} (a principal is { type: "user" | "service" | "app", id }).`);
  }
  return { type: parsed.data.auth.type, id: parsed.data.auth.id };
}
