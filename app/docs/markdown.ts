/**
 * A small Markdown → HTML renderer for the /docs pages: headings with
 * anchors, paragraphs, lists (nested), fenced code, tables, block quotes,
 * rules, links, inline code and emphasis. Every piece of source text is
 * HTML-escaped and raw HTML is never passed through, so the output is safe
 * to inject; link targets are limited to http(s), mailto and relative URLs.
 */

export interface Heading {
  level: number;
  text: string;
  id: string;
}

export interface RenderedMarkdown {
  html: string;
  /** The first level-1 heading. */
  title?: string;
  headings: Heading[];
}

export interface RenderOptions {
  /** Rewrites a (safe) link target, e.g. `auth.md` → `/docs/auth`. */
  rewriteHref?: (href: string) => string;
}

const FRONTMATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const TABLE_SEPARATOR = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** GitHub-style heading ids: lowercase, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return plainInline(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** Inline Markdown reduced to its text (for ids, titles and search). */
export function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, "$1$2");
}

function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed);
  if (scheme && !["http", "https", "mailto"].includes(scheme[1].toLowerCase())) return undefined;
  return trimmed;
}

class InlineRenderer {
  constructor(private readonly options: RenderOptions) {}

  render(text: string): string {
    const stash: string[] = [];
    let html = this.pass(text.replace(/\u0000/g, ""), stash, false);
    // Held pieces may hold others (a link label with code in it).
    while (/\u0000\d+\u0000/.test(html)) html = html.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => stash[Number(index)]);
    return html;
  }

  /** Replaces code, escapes and links with placeholders, then escapes the rest and applies emphasis. */
  private pass(text: string, stash: string[], inLink: boolean): string {
    const hold = (html: string) => `\u0000${stash.push(html) - 1}\u0000`;
    const link = (href: string, label: string) => hold(`<a href="${escapeHtml(href)}">${label}</a>`);
    let source = text;
    // Code spans first: nothing inside them is Markdown.
    source = source.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_match, _ticks: string, code: string) => {
      const inner = /^ .* $/.test(code) ? code.slice(1, -1) : code;
      return hold(`<code>${escapeHtml(inner)}</code>`);
    });
    source = source.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, (_match, char: string) => hold(escapeHtml(char)));
    if (!inLink) {
      source = source.replace(/\[([^\]]+)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g, (_match, label: string, href: string) => {
        const target = safeHref(href);
        const inner = this.pass(label, stash, true);
        if (target === undefined) return hold(inner);
        return link(this.options.rewriteHref ? this.options.rewriteHref(target) : target, inner);
      });
      source = source.replace(/<(https?:\/\/[^\s<>]+)>/g, (_match, url: string) => link(url, escapeHtml(url)));
      source = source.replace(/\bhttps?:\/\/[^\s<>()]*[^\s<>().,:;!?"'\]]/g, (url) => link(url, escapeHtml(url)));
    }
    let html = escapeHtml(source);
    html = html.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "<strong>$1</strong>");
    html = html.replace(/(^|[^\p{L}\p{N}_])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}_])/gu, "$1<strong>$2</strong>");
    html = html.replace(/\*(?=\S)([^*]*?\S)\*/g, "<em>$1</em>");
    // `_` emphasis only at word boundaries, so snake_case names stay as they are.
    return html.replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}_])/gu, "$1<em>$2</em>");
  }
}

interface ListItem {
  lines: string[];
  /** A blank line inside the item: its paragraphs keep their <p>. */
  loose: boolean;
}

function indentOf(line: string): number {
  return /^ */.exec(line.replace(/\t/g, "    "))![0].length;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function splitRow(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const cells: string[] = [];
  let current = "";
  let inCode = false;
  for (let i = 0; i < trimmed.length; i++) {
    const char = trimmed[i];
    if (char === "\\" && trimmed[i + 1] === "|") {
      current += "|";
      i++;
    } else if (char === "`") {
      inCode = !inCode;
      current += char;
    } else if (char === "|" && !inCode) {
      cells.push(current.trim());
      current = "";
    } else current += char;
  }
  cells.push(current.trim());
  return cells;
}

class BlockRenderer {
  readonly headings: Heading[] = [];
  private readonly ids = new Map<string, number>();
  private readonly inline: InlineRenderer;

  constructor(options: RenderOptions) {
    this.inline = new InlineRenderer(options);
  }

  private startsBlock(lines: string[], i: number): boolean {
    const line = lines[i];
    return (
      FENCE.test(line) ||
      HEADING.test(line) ||
      RULE.test(line) ||
      QUOTE.test(line) ||
      LIST_ITEM.test(line) ||
      (line.includes("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]) && lines[i + 1].includes("-"))
    );
  }

  private uniqueId(text: string): string {
    const base = slugify(text) || "section";
    const seen = this.ids.get(base) ?? 0;
    this.ids.set(base, seen + 1);
    return seen === 0 ? base : `${base}-${seen}`;
  }

  render(lines: string[]): string {
    const out: string[] = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (isBlank(line)) {
        i++;
        continue;
      }
      const fence = FENCE.exec(line);
      if (fence) {
        const [, marker, language] = fence;
        const indent = indentOf(line);
        const body: string[] = [];
        i++;
        while (i < lines.length && !new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`).test(lines[i])) {
          body.push(lines[i].slice(Math.min(indent, indentOf(lines[i]))));
          i++;
        }
        i++;
        const cls = language ? ` class="language-${escapeHtml(language)}"` : "";
        out.push(`<pre><code${cls}>${escapeHtml(body.join("\n"))}</code></pre>`);
        continue;
      }
      const heading = HEADING.exec(line);
      if (heading) {
        const level = heading[1].length;
        const text = heading[2];
        const id = this.uniqueId(text);
        this.headings.push({ level, text: plainInline(text), id });
        out.push(`<h${level} id="${id}">${this.inline.render(text)} <a class="anchor" href="#${id}" aria-label="Link to this section">#</a></h${level}>`);
        i++;
        continue;
      }
      if (RULE.test(line)) {
        out.push("<hr>");
        i++;
        continue;
      }
      if (QUOTE.test(line)) {
        const body: string[] = [];
        while (i < lines.length && !isBlank(lines[i]) && (QUOTE.test(lines[i]) || !this.startsBlock(lines, i))) {
          body.push(lines[i].replace(QUOTE, ""));
          i++;
        }
        out.push(`<blockquote>${this.render(body)}</blockquote>`);
        continue;
      }
      if (LIST_ITEM.test(line)) {
        i = this.list(lines, i, out);
        continue;
      }
      if (line.includes("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]) && lines[i + 1].includes("-")) {
        i = this.table(lines, i, out);
        continue;
      }
      const paragraph: string[] = [];
      while (i < lines.length && !isBlank(lines[i]) && (paragraph.length === 0 || !this.startsBlock(lines, i))) {
        paragraph.push(lines[i].trim());
        i++;
      }
      out.push(`<p>${this.inline.render(paragraph.join("\n"))}</p>`);
    }
    return out.join("\n");
  }

  private table(lines: string[], start: number, out: string[]): number {
    const header = splitRow(lines[start]);
    const aligns = splitRow(lines[start + 1]).map((cell) =>
      cell.startsWith(":") && cell.endsWith(":") ? "center" : cell.endsWith(":") ? "right" : cell.startsWith(":") ? "left" : "",
    );
    const cell = (tag: "th" | "td", text: string, index: number) => {
      const align = aligns[index] ? ` style="text-align:${aligns[index]}"` : "";
      return `<${tag}${align}>${this.inline.render(text)}</${tag}>`;
    };
    const rows: string[] = [];
    let i = start + 2;
    while (i < lines.length && !isBlank(lines[i]) && lines[i].includes("|")) {
      const cells = splitRow(lines[i]);
      rows.push(`<tr>${header.map((_, index) => cell("td", cells[index] ?? "", index)).join("")}</tr>`);
      i++;
    }
    out.push(
      `<div class="table-wrap"><table><thead><tr>${header.map((text, index) => cell("th", text, index)).join("")}</tr></thead>` +
        `<tbody>${rows.join("")}</tbody></table></div>`,
    );
    return i;
  }

  private list(lines: string[], start: number, out: string[]): number {
    const first = LIST_ITEM.exec(lines[start])!;
    const baseIndent = first[1].length;
    const ordered = /\d/.test(first[2]);
    const items: ListItem[] = [];
    let contentIndent = 0;
    let i = start;
    while (i < lines.length) {
      const line = lines[i];
      const item = LIST_ITEM.exec(line);
      if (item && item[1].length === baseIndent && /\d/.test(item[2]) === ordered) {
        contentIndent = baseIndent + item[2].length + Math.max(1, Math.min(item[3].length, 4));
        items.push({ lines: [item[4]], loose: false });
        i++;
        continue;
      }
      const current = items[items.length - 1];
      if (isBlank(line)) {
        let next = i + 1;
        while (next < lines.length && isBlank(lines[next])) next++;
        if (next >= lines.length) break;
        const nextItem = LIST_ITEM.exec(lines[next]);
        const continues = indentOf(lines[next]) >= contentIndent;
        const sibling = nextItem && nextItem[1].length === baseIndent && /\d/.test(nextItem[2]) === ordered;
        if (!continues && !sibling) break;
        if (continues) current.loose = true;
        current.lines.push("");
        i = next;
        continue;
      }
      if (indentOf(line) > baseIndent) {
        current.lines.push(line.replace(/\t/g, "    ").slice(Math.min(contentIndent, indentOf(line))));
        i++;
        continue;
      }
      // A lazy continuation line of the item's paragraph.
      if (!isBlank(lines[i - 1]) && !this.startsBlock(lines, i)) {
        current.lines.push(line.trim());
        i++;
        continue;
      }
      break;
    }
    const rendered = items.map((item) => {
      const html = this.render(item.lines);
      return `<li>${item.loose ? html : html.replace(/^<p>([\s\S]*?)<\/p>(?=\n|$)/, "$1")}</li>`;
    });
    const startNumber = ordered ? Number.parseInt(first[2], 10) : 1;
    const open = ordered ? (startNumber !== 1 ? `<ol start="${startNumber}">` : "<ol>") : "<ul>";
    out.push(`${open}${rendered.join("")}${ordered ? "</ol>" : "</ul>"}`);
    return i;
  }
}

export function renderMarkdown(source: string, options: RenderOptions = {}): RenderedMarkdown {
  const text = source.replace(/^\uFEFF/, "").replace(FRONTMATTER, "");
  const renderer = new BlockRenderer(options);
  const html = renderer.render(text.replace(/\r\n?/g, "\n").split("\n"));
  return { html, title: renderer.headings.find((heading) => heading.level === 1)?.text, headings: renderer.headings };
}
