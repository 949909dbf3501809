/**
 * One way to run a zod-like schema and describe its failure by field path
 * (`prUrl: Invalid URL`), shared by tool input, config and eval checks.
 */
import type { ZodLike } from "./tools.ts";

export type SchemaCheck<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

interface Issue {
  path?: PropertyKey[];
  message: string;
}

export function formatIssues(error: unknown): string {
  const issues = (error as { issues?: Issue[] } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return error instanceof Error ? error.message : String(error);
  return issues
    .map((issue) => `${issue.path && issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}

export function checkSchema<T>(schema: ZodLike<T>, value: unknown): SchemaCheck<T> {
  try {
    const result = schema.safeParse(value);
    return result.success ? { ok: true, value: result.data } : { ok: false, message: formatIssues(result.error) };
  } catch (error) {
    // zod throws when a schema has async refinements and is parsed synchronously.
    return { ok: false, message: (error as Error).message };
  }
}
