/**
 * A real-shaped project, as the field's 241-tool project is built (spec
 * field-usage): every tool imports zod and a few modules of a shared
 * `bot/lib` tree (an index re-exporting three levels of helpers, some of
 * which build zod schemas of their own), a few take a JSON-Schema
 * `inputSchema` a helper generates, and tools import each other's schemas.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The helper tree: path under bot/lib → source. About twenty modules, three levels deep. */
function libModules(salt: string): Record<string, string> {
  const modules: Record<string, string> = {
    "util/strings.ts": `// ${salt}
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
export function truncate(text: string, max = 200): string {
  return text.length > max ? \`\${text.slice(0, max - 1)}…\` : text;
}
`,
    "util/time.ts": `export const DAY_MS = 86_400_000;
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
`,
    "util/result.ts": `export type Result<T> = { ok: true; value: T } | { ok: false; error: string };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: string): Result<never> => ({ ok: false, error });
`,
    "util/retry.ts": `import { DAY_MS } from "./time.js";
export async function retry<T>(attempt: () => Promise<T>, times = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < times; i++) {
    try { return await attempt(); } catch (error) { last = error; }
  }
  throw last instanceof Error ? last : new Error(String(last) + DAY_MS);
}
`,
    "util/index.ts": `export * from "./strings.js";
export * from "./time.js";
export * from "./result.js";
export * from "./retry.js";
`,
    "config.ts": `import { z } from "zod";
export const ConfigSchema = z.object({ baseUrl: z.string().url().default("https://api.example.com"), pageSize: z.number().int().default(50) });
export type Config = z.infer<typeof ConfigSchema>;
export const config: Config = ConfigSchema.parse({});
`,
    "http/headers.ts": `import { config } from "../config.js";
export function headers(token?: string): Record<string, string> {
  return { accept: "application/json", "x-base": config.baseUrl, ...(token ? { authorization: \`Bearer \${token}\` } : {}) };
}
`,
    "http/client.ts": `import { headers } from "./headers.js";
import { retry } from "../util/index.js";
import { config } from "../config.js";
export interface Client { get(path: string): Promise<unknown>; post(path: string, body: unknown): Promise<unknown> }
export function createClient(token?: string): Client {
  const request = (method: string, path: string, body?: unknown) => retry(async () => {
    const response = await fetch(new URL(path, config.baseUrl), { method, headers: headers(token), body: body === undefined ? undefined : JSON.stringify(body) });
    return response.json() as Promise<unknown>;
  });
  return { get: (path) => request("GET", path), post: (path, body) => request("POST", path, body) };
}
`,
    "http/pagination.ts": `import { z } from "zod";
import { config } from "../config.js";
export const PageSchema = z.object({ cursor: z.string().optional().describe("Opaque cursor from the previous page"), limit: z.number().int().min(1).max(200).default(config.pageSize) });
export type Page = z.infer<typeof PageSchema>;
`,
    "http/index.ts": `export * from "./client.js";
export * from "./pagination.js";
`,
    "schemas/common.ts": `import { z } from "zod";
export const Id = z.string().min(1).describe("Record id");
export const Tags = z.array(z.string().max(40)).max(20).optional().describe("Tags to filter by");
export const DateRange = z.object({ from: z.string().date().optional(), to: z.string().date().optional() }).describe("Inclusive date range");
export const Mode = z.enum(["fast", "full"]).default("fast");
`,
    "schemas/records.ts": `import { z } from "zod";
import { Id, Tags } from "./common.js";
export const RecordSchema = z.object({ id: Id, title: z.string(), tags: Tags, status: z.enum(["open", "closed", "archived"]) });
export const RecordPatch = RecordSchema.partial().extend({ id: Id });
`,
    "schemas/people.ts": `import { z } from "zod";
import { Id } from "./common.js";
export const Person = z.object({ id: Id, email: z.string().email(), role: z.enum(["owner", "member", "guest"]).default("member") });
`,
    "schemas/json-schema.ts": `import type { JsonSchemaObject } from "@cursor/bdk";
/** Tools of the legacy half take a JSON Schema this helper writes. */
export function objectSchema(properties: Record<string, { type: string; description?: string }>, required: string[] = []): JsonSchemaObject {
  return { type: "object", properties, required, additionalProperties: false } as JsonSchemaObject;
}
`,
    "schemas/index.ts": `export * from "./common.js";
export * from "./records.js";
export * from "./people.js";
export * from "./json-schema.js";
`,
    "domain/records.ts": `import { createClient } from "../http/index.js";
import { RecordSchema } from "../schemas/index.js";
import { ok, fail, type Result } from "../util/index.js";
export async function findRecord(id: string): Promise<Result<unknown>> {
  const value = await createClient().get(\`/records/\${id}\`).catch(() => undefined);
  const parsed = RecordSchema.safeParse(value);
  return parsed.success ? ok(parsed.data) : fail(\`record \${id} not found\`);
}
`,
    "domain/people.ts": `import { createClient } from "../http/index.js";
import { Person } from "../schemas/index.js";
export async function findPerson(id: string) {
  return Person.safeParse(await createClient().get(\`/people/\${id}\`).catch(() => undefined));
}
`,
    "domain/search.ts": `import type { Page } from "../http/index.js";
import { createClient } from "../http/index.js";
import { slugify, truncate } from "../util/index.js";
export async function search(query: string, page: Page) {
  const result = await createClient().post("/search", { q: slugify(query), ...page }).catch(() => []);
  return { query: truncate(query), result };
}
`,
    "domain/index.ts": `export * from "./records.js";
export * from "./people.js";
export * from "./search.js";
`,
    "format.ts": `import { truncate, isoDay } from "./util/index.js";
export function summary(title: string, at = new Date()): string {
  return \`\${isoDay(at)} \${truncate(title, 80)}\`;
}
`,
    "index.ts": `export * from "./domain/index.js";
export * from "./schemas/index.js";
export * from "./format.js";
export { config } from "./config.js";
`,
  };
  return modules;
}

const FAMILIES = ["records", "people", "search", "reports", "admin"] as const;

function zodTool(index: number, salt: string): string {
  const family = FAMILIES[index % FAMILIES.length];
  // A tool reusing another's schema (never one of the JSON-Schema tools, which export none).
  const sibling = index >= 10 && index % 7 === 0 && (index - 7) % 10 !== 9 ? `import { inputSchema as siblingInput } from "./${toolName(index - 7)}.js";\n` : "";
  const shape = index % 3 === 0 ? "RecordPatch.extend({ mode: Mode, range: DateRange.optional() })" : `z.object({
    id: Id,
    tags: Tags,
    page: PageSchema.optional(),
    mode: Mode,
    note: z.string().max(500).optional().describe("Free text for ${family} ${index}"),
    kind: z.discriminatedUnion("type", [z.object({ type: z.literal("one"), value: z.string() }), z.object({ type: z.literal("many"), values: z.array(z.string()) })]).optional(),
  })`;
  return `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findRecord, search, summary, Id, Tags, Mode, DateRange, RecordPatch } from "../lib/index.js";
import { PageSchema } from "../lib/http/pagination.js";
import { slugify } from "../lib/util/strings.js";
${sibling}// ${salt}
export const inputSchema = ${shape};

export default defineTool({
  description: "${family} tool ${index}: ${slugify(`looks up ${family}`)} and summarises them.",
  effect: ${index % 2 === 0 ? '"read"' : "(input) => (input.mode === \"full\" ? \"write\" : \"read\")"},
  inputSchema${sibling ? ": inputSchema.extend({ related: siblingInput.shape.id.optional() })" : ""},
  async execute(input, ctx) {
    if (ctx.session?.dryRun) return { dryRun: true, tool: ${index} };
    const found = "id" in input && input.id ? await findRecord(String(input.id)) : await search("${family}", { limit: 10 });
    return { call: ctx.toolCallId, summary: summary("${family} ${index}"), found };
  },
});
`;
}

function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

function jsonSchemaTool(index: number, salt: string): string {
  return `import { defineTool } from "@cursor/bdk/tools";
import { objectSchema, findPerson } from "../lib/index.js";
// ${salt}
export default defineTool({
  description: "Legacy tool ${index}: reads a person by id.",
  inputSchema: objectSchema({ id: { type: "string", description: "Person id" }, verbose: { type: "boolean" } }, ["id"]),
  async execute(input: { id: string }) {
    return { person: await findPerson(input.id), tool: ${index} };
  },
});
`;
}

export function toolName(index: number): string {
  return `tool_${String(index).padStart(3, "0")}`;
}

/** Writes the project's bot/ folder under `dir` (which holds package.json and node_modules). */
export function writeRealShapedBot(dir: string, tools: number, salt: string): void {
  for (const [file, source] of Object.entries(libModules(salt))) {
    mkdirSync(path.dirname(path.join(dir, "bot", "lib", file)), { recursive: true });
    writeFileSync(path.join(dir, "bot", "lib", file), source);
  }
  mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
  for (let i = 0; i < tools; i++) {
    writeFileSync(path.join(dir, "bot", "tools", `${toolName(i)}.ts`), i % 10 === 9 ? jsonSchemaTool(i, salt) : zodTool(i, salt));
  }
}
