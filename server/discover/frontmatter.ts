/** `---` YAML frontmatter at the top of a Markdown file (skills, schedules). */
import { parse } from "yaml";

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Throws with the YAML parser's message when the block is not a mapping. */
export function parseFrontmatter(source: string): Frontmatter {
  const text = source.replace(/^\uFEFF/, "");
  const match = FRONTMATTER.exec(text);
  if (!match) return { data: {}, body: text, bodyLine: 1 };
  const parsed: unknown = parse(match[1]) ?? {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("frontmatter must be a YAML mapping (key: value lines)");
  return {
    data: parsed as Record<string, unknown>,
    body: text.slice(match[0].length),
    bodyLine: match[0].split("\n").length,
  };
}
