/**
 * A duration in milliseconds from an environment variable: undefined when
 * unset, empty or not a positive number, so the caller's default applies.
 */
export function envMilliseconds(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}
