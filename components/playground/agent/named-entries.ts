/**
 * `info` lists skills, subagents, connections and hooks in whatever shape the
 * server chose (strings, objects, maps). This flattens any of them into
 * name + description + a few facts for display.
 */
export interface NamedEntry {
  name: string;
  description?: string;
  facts: Array<[string, string]>;
}

const NAME_KEYS = ["name", "id", "namespace", "event", "key", "slug"];
const SKIP = new Set([...NAME_KEYS, "description", "instructions", "markdown", "inputSchema", "files"]);

export function namedEntries(value: unknown): NamedEntry[] {
  if (Array.isArray(value)) return value.map((item, index) => toEntry(item, undefined, index));
  if (value && typeof value === "object") return Object.entries(value).map(([key, item], index) => toEntry(item, key, index));
  return [];
}

function toEntry(item: unknown, key: string | undefined, index: number): NamedEntry {
  if (typeof item === "string") return { name: key ?? item, description: key ? item : undefined, facts: [] };
  if (!item || typeof item !== "object") return { name: key ?? `#${index + 1}`, facts: item === undefined ? [] : [["value", String(item)]] };
  const record = item as Record<string, unknown>;
  const nameKey = NAME_KEYS.find((k) => typeof record[k] === "string");
  const name = key ?? (nameKey ? String(record[nameKey]) : `#${index + 1}`);
  const facts: Array<[string, string]> = [];
  for (const [field, fieldValue] of Object.entries(record)) {
    if (SKIP.has(field) || (field === nameKey && !key)) continue;
    const text = fact(fieldValue);
    if (text) facts.push([field, text]);
  }
  return { name, description: typeof record.description === "string" ? record.description : undefined, facts: facts.slice(0, 8) };
}

function fact(value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const names = value.map((v) => (typeof v === "string" ? v : v && typeof v === "object" ? ((v as { name?: unknown }).name ?? (v as { id?: unknown }).id) : undefined)).filter(Boolean);
    return names.length ? names.join(", ") : `${value.length} items`;
  }
  if (typeof value === "object") {
    // e.g. an extension's `contributes: { tools: [...], instructions: true }`
    const parts = Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => (inner === true ? key : fact(inner) && !(typeof inner === "object" && !Array.isArray(inner)) ? `${key}: ${fact(inner)}` : undefined))
      .filter(Boolean);
    return parts.length ? parts.join("; ") : undefined;
  }
  return undefined;
}
