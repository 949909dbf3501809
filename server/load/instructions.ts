/** The root's always-on prompt: instructions.md, instructions.ts or an instructions/ folder. */
import type { InstructionsEntry } from "../discover/manifest.ts";
import { importDefinition, readProjectFile, type LoadContext } from "./context.ts";

export async function loadInstructions(ctx: LoadContext, entry: InstructionsEntry | undefined): Promise<string> {
  if (!entry) return "";
  const text = await instructionsText(ctx, entry);
  if (text !== undefined && !text.trim()) {
    ctx.diagnostics.warning("empty_instructions", "the instructions are empty", { file: entry.files[0] });
  }
  return text?.trim() ?? "";
}

async function instructionsText(ctx: LoadContext, entry: InstructionsEntry): Promise<string | undefined> {
  if (entry.form === "markdown") return readProjectFile(ctx, entry.files[0]);
  if (entry.form === "directory") {
    if (entry.files.length === 0) {
      ctx.diagnostics.error("missing_instructions", "the instructions/ folder has no .md files", { file: "instructions/" });
      return undefined;
    }
    return entry.files.map((file) => readProjectFile(ctx, file).trim()).join("\n\n");
  }
  const value = await importDefinition(ctx, entry.files[0], {
    kinds: ["instructions"],
    helper: "defineInstructions({ markdown }) or a string",
    accept: (candidate) => typeof candidate === "string",
  });
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  const markdown = (value as { markdown?: unknown }).markdown;
  if (typeof markdown === "string") return markdown;
  ctx.diagnostics.error("invalid_definition", "defineInstructions needs a markdown string", { file: entry.files[0] });
  return undefined;
}
