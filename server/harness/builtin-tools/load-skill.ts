import { z } from "zod";
import type { LoadedSkill, LoadedTool } from "../../load/types.ts";
import { builtinTool } from "./define.ts";

const schema = z.object({ name: z.string().min(1).describe("Skill name from the skill catalogue") });

export function loadSkillTool(skills: LoadedSkill[]): LoadedTool {
  return builtinTool(
    "load_skill",
    "Load a skill's full instructions by name (the catalogue of skills is in your instructions). Its files are in .cursor/skills/<name>/.",
    schema,
    ({ name }) => {
      const skill = skills.find((candidate) => candidate.name === name);
      if (!skill) {
        const available = skills.map((candidate) => candidate.name).join(", ");
        throw new Error(`unknown skill ${JSON.stringify(name)}; ${available ? `available skills: ${available}` : "this agent has no skills"}`);
      }
      return {
        name: skill.name,
        description: skill.description,
        content: skill.markdown,
        directory: `.cursor/skills/${skill.name}`,
        files: Object.keys(skill.files).sort(),
      };
    },
  );
}
