/** `${NAME}` templates in a connection's `headers` and `env`, resolved each time a client opens. */
import { TEMPLATE } from "../load/connections.ts";

export type Env = Record<string, string | undefined>;

/**
 * Replaces every `${NAME}` with its value in `env`. An unset name fails the
 * open (naming the variable) rather than sending an empty secret; the
 * connection is retried later, so a secret set after load is picked up.
 */
export function resolveTemplates(values: Record<string, string> | undefined, env: Env): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    resolved[key] = value.replace(TEMPLATE, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) throw new Error(`\${${name}} (used in ${key}) is not set in the environment`);
      return found;
    });
  }
  return resolved;
}

/** Variables a stdio child inherits besides its own `env` (the MCP SDK's list, read from `env`). */
const INHERITED = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG"];

/** The minimal environment a stdio server starts with: no secrets unless the connection names them. */
export function baseChildEnv(env: Env): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = env[name];
    // A value starting with "()" is an exported shell function: never inherit those.
    if (value !== undefined && !value.startsWith("()")) base[name] = value;
  }
  return base;
}
