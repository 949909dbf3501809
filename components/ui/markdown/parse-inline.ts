/** Inline Markdown: code spans, bold, italic, strikethrough, links, autolinks, line breaks. */
export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong" | "em" | "del"; children: Inline[] }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "break" };

const AUTOLINK = /^https?:\/\/[^\s<>"]*[^\s<>".,:;!?'")\]]/;
const ESCAPABLE = "\\`*_{}[]()#+-.!|~>";

/** Only these link targets are rendered as links; anything else (javascript:, data:) stays text. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed) || trimmed.startsWith("/") || trimmed.startsWith("#")) return trimmed;
  return undefined;
}

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ kind: "text", text });
    text = "";
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === "\\" && i + 1 < source.length && ESCAPABLE.includes(source[i + 1])) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "\n") {
      flush();
      out.push({ kind: "break" });
      i++;
      continue;
    }
    if (ch === "`") {
      let run = 1;
      while (source[i + run] === "`") run++;
      const fence = "`".repeat(run);
      const end = source.indexOf(fence, i + run);
      if (end > 0) {
        flush();
        out.push({ kind: "code", text: source.slice(i + run, end).replace(/^ (.*) $/, "$1") });
        i = end + run;
        continue;
      }
      text += fence;
      i += run;
      continue;
    }
    const emphasis = matchEmphasis(source, i);
    if (emphasis) {
      flush();
      out.push({ kind: emphasis.kind, children: parseInline(emphasis.inner) });
      i = emphasis.end;
      continue;
    }
    if (ch === "[") {
      const link = matchLink(source, i);
      if (link) {
        flush();
        const href = safeHref(link.href);
        if (href) out.push({ kind: "link", href, children: parseInline(link.label) });
        else out.push(...parseInline(link.label));
        i = link.end;
        continue;
      }
    }
    if ((ch === "h" || ch === "H") && !/[\w/]/.test(source[i - 1] ?? "")) {
      const match = AUTOLINK.exec(source.slice(i, i + 2048));
      if (match) {
        flush();
        out.push({ kind: "link", href: match[0], children: [{ kind: "text", text: match[0] }] });
        i += match[0].length;
        continue;
      }
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

function matchEmphasis(source: string, i: number): { kind: "strong" | "em" | "del"; inner: string; end: number } | undefined {
  const ch = source[i];
  if (ch !== "*" && ch !== "_" && ch !== "~") return undefined;
  // Underscores inside words (snake_case) are not emphasis.
  if (ch === "_" && /[A-Za-z0-9]/.test(source[i - 1] ?? "")) return undefined;
  const double = source[i + 1] === ch;
  if (ch === "~" && !double) return undefined;
  const marker = double ? ch + ch : ch;
  const startInner = i + marker.length;
  if (!source[startInner] || /\s/.test(source[startInner])) return undefined;
  let search = startInner + 1;
  while (search <= source.length) {
    const end = source.indexOf(marker, search);
    if (end < 0) return undefined;
    const closesCleanly = !/\s/.test(source[end - 1]) && (double || source[end + 1] !== ch) && (ch !== "_" || !/[A-Za-z0-9]/.test(source[end + marker.length] ?? ""));
    if (closesCleanly && end > startInner) {
      return { kind: ch === "~" ? "del" : double ? "strong" : "em", inner: source.slice(startInner, end), end: end + marker.length };
    }
    search = end + 1;
  }
  return undefined;
}

function matchLink(source: string, i: number): { label: string; href: string; end: number } | undefined {
  let depth = 0;
  let close = -1;
  for (let j = i; j < source.length && j < i + 1000; j++) {
    if (source[j] === "[") depth++;
    else if (source[j] === "]" && --depth === 0) {
      close = j;
      break;
    }
  }
  if (close < 0 || source[close + 1] !== "(") return undefined;
  const end = source.indexOf(")", close + 2);
  if (end < 0) return undefined;
  const href = source.slice(close + 2, end).trim().split(/\s+/)[0] ?? "";
  return { label: source.slice(i + 1, close), href, end: end + 1 };
}
