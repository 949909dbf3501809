/**
 * The kit's user documentation: the Markdown files of `docs/`, read from disk
 * on each request (so edits show without a rebuild), rendered, and searched.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { plainInline, renderMarkdown, type RenderedMarkdown } from "./markdown.ts";

// The build runs in the kit directory, so this is the kit's own docs/ folder. (Not `new URL("..", import.meta.url)`:
// the bundler would take that for an asset to include.)
const DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const INDEX_PAGE = "README";
const PAGE_NAME = /^[A-Za-z0-9_-]+$/;

export interface DocPage {
  slug: string;
  title: string;
  markdown: string;
}

export interface SearchHit {
  slug: string;
  title: string;
  /** Text around the first match, split so the match can be highlighted without HTML. */
  snippet: { before: string; match: string; after: string };
  score: number;
}

export function docsHref(slug: string): string {
  return slug === INDEX_PAGE ? "/docs" : `/docs/${slug}`;
}

/** `auth.md#x` → `/docs/auth#x`; other targets are left alone. */
function rewriteHref(href: string): string {
  const match = /^(?:\.\/)?([A-Za-z0-9_-]+)\.md(#.*)?$/.exec(href);
  return match ? `${docsHref(match[1])}${match[2] ?? ""}` : href;
}

function titleOf(slug: string, markdown: string): string {
  const heading = /^#[ \t]+(.+)$/m.exec(markdown);
  return heading ? plainInline(heading[1].trim()) : slug;
}

export function readPage(slug: string): DocPage | undefined {
  if (!PAGE_NAME.test(slug)) return undefined;
  const file = path.join(DOCS_DIR, `${slug}.md`);
  if (!existsSync(file)) return undefined;
  const markdown = readFileSync(file, "utf8");
  return { slug, title: titleOf(slug, markdown), markdown };
}

/** Every page, the index first, then by title. */
export function listPages(): DocPage[] {
  const slugs = existsSync(DOCS_DIR) ? readdirSync(DOCS_DIR).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3)) : [];
  const pages = slugs.map(readPage).filter((page): page is DocPage => page !== undefined);
  return pages.sort((a, b) => (a.slug === INDEX_PAGE ? -1 : b.slug === INDEX_PAGE ? 1 : a.title.localeCompare(b.title)));
}

export function renderPage(page: DocPage): RenderedMarkdown {
  return renderMarkdown(page.markdown, { rewriteHref });
}

/** The page as searchable text: Markdown syntax dropped, code kept (flags and routes live there). */
function plainText(markdown: string): string {
  return markdown
    .replace(/^---[ \t]*\n[\s\S]*?\n---[ \t]*\n/, "")
    .split("\n")
    .filter((line) => !/^\s*(```|~~~)/.test(line) && !/^\s*\|?[\s:|-]+\|?\s*$/.test(line))
    .map((line) => plainInline(line.replace(/^\s*(#{1,6}|>|[-*+]|\d+[.)])\s+/, "")).replace(/\s*\|\s*/g, " · ").replace(/^ · | · $/g, ""))
    .join("\n")
    .replace(/\n{2,}/g, "\n\n");
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

function snippetAround(text: string, at: number, length: number): SearchHit["snippet"] {
  const flat = (value: string) => value.replace(/\s+/g, " ");
  let start = Math.max(0, at - 70);
  let end = Math.min(text.length, at + length + 110);
  if (start > 0) start = text.indexOf(" ", start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(" ", end) > at + length ? text.lastIndexOf(" ", end) : end;
  return {
    before: `${start > 0 ? "…" : ""}${flat(text.slice(start, at)).trimStart()}`,
    match: text.slice(at, at + length),
    after: `${flat(text.slice(at + length, end)).trimEnd()}${end < text.length ? "…" : ""}`,
  };
}

/**
 * Pages containing every word of the query (case-insensitive), best first:
 * title matches weigh ten times a body match.
 */
export function searchDocs(query: string): SearchHit[] {
  const terms = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  if (terms.length === 0) return [];
  const hits: SearchHit[] = [];
  for (const page of listPages()) {
    const text = plainText(page.markdown);
    const lowerText = text.toLowerCase();
    const lowerTitle = page.title.toLowerCase();
    if (!terms.every((term) => lowerText.includes(term) || lowerTitle.includes(term))) continue;
    const score = terms.reduce((sum, term) => sum + occurrences(lowerText, term) + 10 * occurrences(lowerTitle, term), 0);
    const first = terms.map((term) => ({ term, at: lowerText.indexOf(term) })).find((found) => found.at !== -1);
    const snippet = first ? snippetAround(text, first.at, first.term.length) : { before: text.slice(0, 160), match: "", after: "" };
    hits.push({ slug: page.slug, title: page.title, snippet, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.title.localeCompare(b.title));
}
