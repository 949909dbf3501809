import type { ResolvedAgent } from "../load/types.ts";

/**
 * The system prompt: the agent's instructions, then the skill catalogue
 * (names and descriptions; bodies load on demand) and the workspace path.
 */
export function buildSystemPrompt(agent: Pick<ResolvedAgent, "instructions" | "skills">, workspaceDir: string): string {
  const parts = [agent.instructions.trim()];
  if (agent.skills.length > 0) {
    const catalogue = agent.skills.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
    parts.push(`## Skills\n\nLoad a skill with the load_skill tool when it applies:\n${catalogue}`);
  }
  parts.push(`## Workspace\n\nYour working directory is ${workspaceDir}.`);
  return parts.join("\n\n");
}
