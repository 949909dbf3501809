import { brand } from "./brand.ts";

export interface SkillDefinition {
  /** Shown to the model, which loads the body on demand. */
  description: string;
  markdown: string;
  /** Relative path → contents, written beside SKILL.md in the session workspace. */
  files?: Record<string, string>;
}

/**
 * `bot/skills/<name>.ts`: a skill built in code.
 *
 * @example
 * export default defineSkill({ description: "Release checklist", markdown: "1. Tag\n2. Publish" });
 */
export function defineSkill<T extends SkillDefinition>(definition: T): T {
  return brand("skill", definition);
}
