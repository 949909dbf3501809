/** Channel route paths: literal segments and `:param` segments, relative to `/v1/channels/<id>`. */

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** The params when `path` matches `pattern`, else undefined. */
export function matchRoutePath(pattern: string, path: string): Record<string, string> | undefined {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      params[want[i].slice(1)] = safeDecode(got[i]);
    } else if (want[i] !== got[i]) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
