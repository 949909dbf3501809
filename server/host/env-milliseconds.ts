/**
 * A duration in milliseconds from environment variable `name`: undefined
 * when unset or empty (the caller's default applies); a value that is not a
 * whole number of at least `min` stops the start with an error naming it.
 */
export function envMilliseconds(env: Record<string, string | undefined>, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < min) throw new Error(`${name} must be a whole number of milliseconds, at least ${min}; got ${JSON.stringify(raw)}.`);
  return ms;
}
