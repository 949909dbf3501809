/** MCP connections: one of url (remote), command (stdio) or agent (peer); `${NAME}` templates must name set variables. */
import type { ConnectionDefinition } from "../authoring/connections.ts";
import { checked, type LoadContext } from "./context.ts";
import { DefinitionError } from "./definition-error.ts";
import type { ResolvedConnection } from "./types.ts";

/** `${NAME}` in header and env values; resolved when a client opens (server/mcp/templates.ts). */
export const TEMPLATE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function connectionKind(definition: ConnectionDefinition): ResolvedConnection["kind"] {
  const record = definition as unknown as Record<string, unknown>;
  const fields = (["url", "command", "agent"] as const).filter((field) => record[field] !== undefined);
  if (fields.length !== 1) {
    throw new DefinitionError(
      "invalid_definition",
      `a connection needs exactly one of url (remote), command (stdio) or agent (peer)${fields.length ? `; it has ${fields.join(" and ")}` : ""}`,
    );
  }
  const value = record[fields[0]];
  if (typeof value !== "string" || !value.trim()) throw new DefinitionError("invalid_definition", `${fields[0]} must be a non-empty string`);
  if (fields[0] === "url") {
    try {
      new URL(value);
    } catch {
      throw new DefinitionError("invalid_definition", `url "${value}" is not a valid URL`);
    }
  }
  return fields[0] === "url" ? "remote" : fields[0] === "command" ? "stdio" : "peer";
}

/** Variable names used in `${NAME}` templates of headers and env that are unset in `env`. */
export function unsetTemplateVariables(definition: ConnectionDefinition, env: NodeJS.ProcessEnv = process.env): string[] {
  const values = [
    ...Object.values((definition as { headers?: Record<string, unknown> }).headers ?? {}),
    ...Object.values((definition as { env?: Record<string, unknown> }).env ?? {}),
  ];
  const unset = new Set<string>();
  for (const value of values) {
    if (typeof value !== "string") continue;
    for (const match of value.matchAll(TEMPLATE)) if (env[match[1]] === undefined) unset.add(match[1]);
  }
  return [...unset];
}

/** Checks a connection and warns about unset template variables; undefined when unusable (reported). */
export function resolveConnection(
  ctx: LoadContext,
  name: string,
  scope: ResolvedConnection["scope"],
  definition: ConnectionDefinition,
  file: string,
): ResolvedConnection | undefined {
  const kind = checked(ctx, file, () => connectionKind(definition), `connection "${name}": `);
  if (!kind) return undefined;
  for (const variable of unsetTemplateVariables(definition)) {
    ctx.diagnostics.warning("unset_env", `connection "${name}" uses \${${variable}}, which is not set in the environment`, {
      file,
      hint: `Set ${variable} before the connection is used (it is read each time the client opens).`,
    });
  }
  return { name, scope, kind, definition, file };
}
