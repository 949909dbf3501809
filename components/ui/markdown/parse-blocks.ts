/**
 * A small Markdown block parser for model output: fenced code, headings,
 * lists, block quotes, tables, rules and paragraphs. It never produces HTML;
 * the renderer turns the tree into React elements, so text is always escaped.
 */
export type Block =
  | { kind: "code"; lang: string; text: string }
  | { kind: "heading"; level: number; text: string }
  | { kind: "rule" }
  | { kind: "quote"; blocks: Block[] }
  | { kind: "list"; ordered: boolean; start: number; items: Block[][] }
  | { kind: "table"; header: string[]; align: Array<"left" | "center" | "right" | undefined>; rows: string[][] }
  | { kind: "paragraph"; text: string };

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

export function parseBlocks(source: string): Block[] {
  return parseLines(source.replace(/\r\n?/g, "\n").split("\n"));
}

function parseLines(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      i++;
      // An unclosed fence (still streaming) runs to the end.
      while (i < lines.length && !lines[i].trim().startsWith(marker)) body.push(lines[i++]);
      i++;
      blocks.push({ kind: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", level: heading[1].length, text: heading[2] });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: "rule" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && lines[i].trim() && QUOTE.test(lines[i])) body.push(lines[i++].replace(QUOTE, ""));
      blocks.push({ kind: "quote", blocks: parseLines(body) });
      continue;
    }
    if (ITEM.test(line)) {
      i = parseList(lines, i, blocks);
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_DIVIDER.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      i = parseTable(lines, i, blocks);
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && lines[i].trim() && !startsBlock(lines[i])) body.push(lines[i++].trim());
    if (body.length === 0) body.push(lines[i++].trim());
    blocks.push({ kind: "paragraph", text: body.join("\n") });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function parseList(lines: string[], start: number, out: Block[]): number {
  const first = ITEM.exec(lines[start])!;
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items: string[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    const item = ITEM.exec(line);
    if (item && item[1].length === indent && /\d/.test(item[2]) === ordered) {
      items.push([item[3]]);
      i++;
      continue;
    }
    const current = items[items.length - 1];
    if (!line.trim()) {
      // A blank line ends the list unless an indented line continues the item.
      const next = lines[i + 1];
      if (next !== undefined && leadingSpaces(next) > indent && next.trim()) {
        current.push("");
        i++;
        continue;
      }
      break;
    }
    if (leadingSpaces(line) > indent) {
      current.push(line.slice(Math.min(leadingSpaces(line), indent + (first[2].length + 1))));
      i++;
      continue;
    }
    if (startsBlock(line)) break;
    current.push(line.trim()); // lazy continuation
    i++;
  }
  out.push({ kind: "list", ordered, start: ordered ? parseInt(first[2], 10) : 1, items: items.map(parseLines) });
  return i;
}

function parseTable(lines: string[], start: number, out: Block[]): number {
  const header = splitRow(lines[start]);
  const align = splitRow(lines[start + 1]).map((cell) => {
    const left = cell.startsWith(":");
    const right = cell.endsWith(":");
    return left && right ? "center" : right ? "right" : left ? "left" : undefined;
  });
  const rows: string[][] = [];
  let i = start + 2;
  while (i < lines.length && lines[i].includes("|") && lines[i].trim()) rows.push(splitRow(lines[i++]));
  out.push({ kind: "table", header, align, rows });
  return i;
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

function leadingSpaces(line: string): number {
  return line.length - line.trimStart().length;
}
