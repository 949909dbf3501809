/**
 * `prompt` keeps multi-line strings aligned with the surrounding code while
 * returning dedented text.
 *
 * Rules: one newline right after the opening backtick is dropped, so is the
 * newline-plus-indent before the closing backtick; the whitespace prefix
 * common to every non-blank line is removed; blank lines stay (emptied of
 * whitespace) and relative indentation is kept. The prefix is computed on the
 * literal parts only and interpolated values are inserted afterwards, so a
 * multi-line value keeps its own lines exactly.
 *
 * @example
 * throw new Error(prompt`
 *   It is outside business hours (Mon-Fri 9am-5pm ET).
 *   Use request_author_approval, or pass approval=human_request.
 * `);
 */
export interface PromptTag {
  (strings: TemplateStringsArray, ...values: unknown[]): string;
  /** Same rules, one entry per line. */
  lines(strings: TemplateStringsArray, ...values: unknown[]): string[];
}

const LEADING_NEWLINE = /^[ \t]*\r?\n/;
const TRAILING_NEWLINE_AND_INDENT = /\r?\n[ \t]*$/;

function dedent(strings: TemplateStringsArray, values: unknown[]): string {
  const parts = strings.map((cooked, i) => cooked ?? strings.raw[i]);
  parts[0] = parts[0].replace(LEADING_NEWLINE, "");
  parts[parts.length - 1] = parts[parts.length - 1].replace(TRAILING_NEWLINE_AND_INDENT, "");

  const prefix = commonIndent(parts);
  const dedented = parts.map((part, index) => stripIndent(part, prefix, index === 0, index === parts.length - 1));

  let text = dedented[0];
  for (let i = 0; i < values.length; i++) text += String(values[i]) + dedented[i + 1];
  return text;
}

/** Each line start in the literal parts with the whitespace that follows it. */
function lineStarts(parts: string[]): { indent: string; blank: boolean }[] {
  const starts: { indent: string; blank: boolean }[] = [];
  parts.forEach((part, index) => {
    const isLast = index === parts.length - 1;
    const segments = part.split("\n");
    segments.forEach((segment, lineIndex) => {
      // The first segment of a later part continues a line begun before an interpolation.
      if (lineIndex === 0 && index > 0) return;
      const indent = /^[ \t]*/.exec(segment)![0];
      const endsLine = lineIndex < segments.length - 1 || isLast;
      const blank = indent.length === segment.replace(/\r$/, "").length && endsLine;
      starts.push({ indent, blank });
    });
  });
  return starts;
}

function commonIndent(parts: string[]): string {
  let prefix: string | undefined;
  for (const { indent, blank } of lineStarts(parts)) {
    if (blank) continue;
    if (prefix === undefined) {
      prefix = indent;
      continue;
    }
    let length = 0;
    while (length < prefix.length && length < indent.length && prefix[length] === indent[length]) length++;
    prefix = prefix.slice(0, length);
  }
  return prefix ?? "";
}

function stripIndent(part: string, prefix: string, isFirst: boolean, isLast: boolean): string {
  const segments = part.split("\n");
  return segments
    .map((segment, lineIndex) => {
      if (lineIndex === 0 && !isFirst) return segment;
      const endsLine = lineIndex < segments.length - 1 || isLast;
      if (endsLine && /^[ \t]*\r?$/.test(segment)) return segment.endsWith("\r") ? "\r" : "";
      return segment.startsWith(prefix) ? segment.slice(prefix.length) : segment;
    })
    .join("\n");
}

export const prompt: PromptTag = Object.assign(
  (strings: TemplateStringsArray, ...values: unknown[]) => dedent(strings, values),
  { lines: (strings: TemplateStringsArray, ...values: unknown[]) => dedent(strings, values).split(/\r?\n/) },
);
