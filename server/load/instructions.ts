/** The root's always-on prompt: instructions.md, instructions.ts or an instructions/ folder. */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { InstructionsEntry } from "../discover/manifest.ts";
import { absolute, importDefinition, type LoadContext } from "./context.ts";

/**
 * Instructions go to the model on every turn: past this size they would
 * fill any context window (2 MiB is about half a million tokens).
 */
export const MAX_INSTRUCTIONS_BYTES = 2 * 1024 * 1024;

const MIB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function loadInstructions(ctx: LoadContext, entry: InstructionsEntry | undefined): Promise<string> {
  if (!entry) return "";
  const text = await instructionsText(ctx, entry);
  if (text === undefined) return "";
  if (Buffer.byteLength(text) > MAX_INSTRUCTIONS_BYTES) {
    tooLarge(ctx, entry.form === "directory" ? `${path.posix.dirname(entry.files[0])}/` : entry.files[0], Buffer.byteLength(text));
    return "";
  }
  if (!text.trim()) ctx.diagnostics.warning("empty_instructions", "the instructions are empty", { file: entry.files[0] });
  return text.trim();
}

function tooLarge(ctx: LoadContext, file: string, bytes: number): void {
  ctx.diagnostics.error("invalid_instructions", `the instructions are ${MIB(bytes)}; at most ${MIB(MAX_INSTRUCTIONS_BYTES)} fit the prompt of every turn`, {
    file,
    hint: "Keep the always-on prompt short; move reference material into skills (loaded when needed) or sandbox/workspace/ files.",
  });
}

/** A Markdown instructions file as text; too large (checked before reading) or not text is reported and undefined. */
function readInstructionsFile(ctx: LoadContext, file: string): string | undefined {
  const size = statSync(absolute(ctx, file)).size;
  if (size > MAX_INSTRUCTIONS_BYTES) {
    tooLarge(ctx, file, size);
    return undefined;
  }
  const bytes = readFileSync(absolute(ctx, file));
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  if (text === undefined || text.includes("\0")) {
    ctx.diagnostics.error("invalid_instructions", "is not text (it is binary or not UTF-8); instructions are Markdown", { file });
    return undefined;
  }
  return text;
}

async function instructionsText(ctx: LoadContext, entry: InstructionsEntry): Promise<string | undefined> {
  if (entry.form === "markdown") return readInstructionsFile(ctx, entry.files[0]);
  if (entry.form === "directory") {
    if (entry.files.length === 0) {
      ctx.diagnostics.error("missing_instructions", "the instructions/ folder has no .md files", { file: "instructions/" });
      return undefined;
    }
    const parts = entry.files.map((file) => readInstructionsFile(ctx, file));
    return parts.every((part) => part !== undefined) ? parts.map((part) => part.trim()).join("\n\n") : undefined;
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
