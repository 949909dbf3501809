/** Skills in their three forms: skills/<name>.md, skills/<name>/SKILL.md (+ siblings), skills/<name>.ts. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { SkillDefinition } from "../authoring/skills.ts";
import { parseFrontmatter, type Frontmatter } from "../discover/frontmatter.ts";
import type { SkillEntry } from "../discover/manifest.ts";
import { listFilesRecursive } from "../discover/paths.ts";
import { absolute, checked, importDefinition, readProjectFile, type LoadContext } from "./context.ts";
import { DefinitionError } from "./definition-error.ts";
import type { LoadedSkill } from "./types.ts";

function frontmatterOf(ctx: LoadContext, file: string): Frontmatter | undefined {
  try {
    return parseFrontmatter(readProjectFile(ctx, file));
  } catch (error) {
    ctx.diagnostics.error("invalid_frontmatter", `invalid frontmatter: ${(error as Error).message}`, { file, line: 1 });
    return undefined;
  }
}

/** The first non-blank body line, without Markdown heading or list markers. */
function firstLine(body: string): string | undefined {
  const line = body.split("\n").find((candidate) => candidate.trim());
  return line?.replace(/^\s*(#+|[-*>])\s*/, "").trim() || undefined;
}

/** Checks a `defineSkill` value (authored or contributed by an extension). */
export function skillFromDefinition(name: string, definition: SkillDefinition, file: string): LoadedSkill {
  if (typeof definition.description !== "string" || !definition.description.trim()) {
    throw new DefinitionError("missing_description", `skill "${name}" needs a description`);
  }
  if (typeof definition.markdown !== "string") throw new DefinitionError("invalid_definition", `skill "${name}" needs a markdown string`);
  const files = definition.files ?? {};
  if (typeof files !== "object" || Object.values(files).some((contents) => typeof contents !== "string")) {
    throw new DefinitionError("invalid_definition", `skill "${name}": files must map relative paths to string contents`);
  }
  return { name, description: definition.description.trim(), markdown: definition.markdown, files: { ...files }, file };
}

export async function loadSkill(ctx: LoadContext, entry: SkillEntry): Promise<LoadedSkill | undefined> {
  if (entry.form === "module") {
    const definition = await importDefinition(ctx, entry.file, { kinds: ["skill"], helper: "defineSkill(...)" });
    if (!definition) return undefined;
    return checked(ctx, entry.file, () => skillFromDefinition(entry.name, definition as SkillDefinition, entry.file));
  }

  const frontmatter = frontmatterOf(ctx, entry.file);
  if (!frontmatter) return undefined;
  const declared = frontmatter.data.description;
  if (declared !== undefined && typeof declared !== "string") {
    ctx.diagnostics.error("invalid_frontmatter", "description must be a string", { file: entry.file, line: 1 });
    return undefined;
  }
  // The SKILL.md convention requires the description; a lone .md may fall back to its first line.
  const description = declared?.trim() || (entry.form === "markdown" ? firstLine(frontmatter.body) : undefined);
  if (!description) {
    ctx.diagnostics.error("missing_description", "the skill needs a description", {
      file: entry.file,
      line: 1,
      hint: "Add frontmatter:\n---\ndescription: When to use this skill\n---",
    });
    return undefined;
  }

  const files = entry.form === "directory" ? skillFolderFiles(absolute(ctx, path.posix.dirname(entry.file))) : {};
  return { name: entry.name, description, markdown: frontmatter.body.trim(), files, file: entry.file };
}

/** The files beside a folder skill's SKILL.md (relative path → contents), written next to it in the workspace. */
export function skillFolderFiles(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const relative of listFilesRecursive(folder)) {
    if (relative !== "SKILL.md") files[relative] = readFileSync(path.join(folder, relative), "utf8");
  }
  return files;
}
