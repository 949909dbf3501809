/** A small glob dialect: `**` (any depth), `*` and `?` (within a segment), `{a,b}` alternatives. */

function escapeRegExp(character: string): string {
  return /[.+^${}()|[\]\\*?]/.test(character) ? `\\${character}` : character;
}

export function globToRegExp(pattern: string): RegExp {
  let source = "";
  let braces = 0;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === "*" && pattern[index + 1] === "*") {
      const wholeSegment = (index === 0 || pattern[index - 1] === "/") && pattern[index + 2] === "/";
      source += wholeSegment ? "(?:.*/)?" : ".*";
      index += wholeSegment ? 2 : 1;
    } else if (character === "*") source += "[^/]*";
    else if (character === "?") source += "[^/]";
    else if (character === "{") {
      braces++;
      source += "(?:";
    } else if (character === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (character === "," && braces > 0) source += "|";
    else source += escapeRegExp(character);
  }
  if (braces > 0) throw new Error(`glob ${JSON.stringify(pattern)} has an unclosed "{"`);
  return new RegExp(`^${source}$`);
}

/** A pattern without `/` matches a file name at any depth (like ripgrep's --glob); otherwise the whole relative path. */
export function fileFilter(pattern: string): (relativePath: string) => boolean {
  const regex = globToRegExp(pattern);
  if (pattern.includes("/")) return (relativePath) => regex.test(relativePath);
  return (relativePath) => regex.test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}
