/** The SQLite error code (`SQLITE_BUSY`, ...) of a driver error, also when drizzle wrapped it. */
export function sqliteErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
  }
  return undefined;
}
