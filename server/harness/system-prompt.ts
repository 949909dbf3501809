import type { ResolvedAgent } from "../load/types.ts";

/**
 * Where a part of the system prompt comes from: the agent's instructions,
 * the skill catalogue, the workspace path, recalled memory notes, or a
 * fork's replacement of the whole prompt.
 */
export type PromptSource = "instructions" | "skills" | "workspace" | "memory" | "fork";

export interface PromptSection {
  source: PromptSource;
  text: string;
}

/**
 * The system prompt's parts: the agent's instructions, then the skill
 * catalogue (names and descriptions; bodies load on demand), the workspace
 * path and, when there is any, the recalled memory.
 */
export function systemPromptSections(
  agent: Pick<ResolvedAgent, "instructions" | "skills">,
  workspaceDir: string,
  memory: string | undefined,
): PromptSection[] {
  const sections: PromptSection[] = [{ source: "instructions", text: agent.instructions.trim() }];
  if (agent.skills.length > 0) {
    const catalogue = agent.skills.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
    sections.push({ source: "skills", text: `## Skills\n\nLoad a skill with the load_skill tool when it applies:\n${catalogue}` });
  }
  sections.push({ source: "workspace", text: `## Workspace\n\nYour working directory is ${workspaceDir}.` });
  if (memory) sections.push({ source: "memory", text: memory });
  return sections;
}

/** The system prompt the model receives: its sections, a blank line apart. */
export function systemPromptText(sections: readonly PromptSection[]): string {
  return sections.map((section) => section.text).join("\n\n");
}
