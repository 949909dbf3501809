import { brand } from "./brand.ts";

export interface InstructionsDefinition {
  markdown: string;
}

/**
 * `bot/instructions.ts`: generated instructions (a plain default-exported string works too).
 *
 * @example
 * export default defineInstructions({ markdown: `You are the on-call assistant for ${process.env.TEAM_NAME}.` });
 */
export function defineInstructions<T extends InstructionsDefinition>(definition: T): T {
  return brand("instructions", definition);
}
