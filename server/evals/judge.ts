/**
 * `t.judge(criterion)`: an LLM grades a text against a criterion with a
 * score in 0..1. The judge model comes from `evals.config.ts` only (never
 * `--model`/`BDK_MODEL`, which pick the agent's model); without one, or
 * without its credential, judge assertions are skipped with the reason.
 */
import type { EvalConfigDefinition } from "../authoring/evals.ts";
import { resolveModel, SCRIPTED_MODEL_ID } from "../models/index.ts";
import { messageOf } from "../protocol/errors.ts";

export interface JudgeVerdict {
  score: number;
  reason: string;
}

export type Judge =
  | { available: true; model: string; grade(criterion: string, subject: string, signal?: AbortSignal): Promise<JudgeVerdict> }
  | { available: false; reason: string };

const SYSTEM = [
  "You grade the output of an AI agent against one criterion.",
  "Answer with a single JSON object and nothing else:",
  '{"score": <number from 0 to 1; 1 = fully meets the criterion, 0 = not at all>, "reason": "<one sentence>"}',
].join("\n");

export function createJudge(config: EvalConfigDefinition["judge"], env: Record<string, string | undefined>): Judge {
  const id = config?.model?.trim();
  if (!id) return { available: false, reason: "no judge model is configured (set judge: { model } in evals/evals.config.ts)" };
  if (id === SCRIPTED_MODEL_ID) return { available: false, reason: "the scripted model cannot judge; configure a real judge model" };
  let resolved;
  try {
    // The judge is pinned by its own config: BDK_MODEL picks the agent's model, not the judge's.
    resolved = resolveModel(id, { env: { ...env, BDK_MODEL: undefined }, agentName: "judge" });
  } catch (error) {
    return { available: false, reason: `judge model ${id} is unavailable: ${messageOf(error)}` };
  }
  return {
    available: true,
    model: id,
    async grade(criterion, subject, signal) {
      const { generateText } = await import("ai");
      const { text } = await generateText({
        model: resolved.model,
        providerOptions: resolved.providerOptions,
        system: SYSTEM,
        prompt: `Criterion:\n${criterion}\n\nOutput to grade:\n<<<\n${subject}\n>>>`,
        temperature: 0,
        abortSignal: signal,
      });
      return parseVerdict(text);
    },
  };
}

/** Reads `{ score, reason }` from the judge's answer (tolerating prose or a code fence around it). */
export function parseVerdict(text: string): JudgeVerdict {
  const match = /\{[\s\S]*\}/.exec(text);
  let parsed: { score?: unknown; reason?: unknown } | undefined;
  try {
    parsed = match ? JSON.parse(match[0]) : undefined;
  } catch {
    parsed = undefined;
  }
  const score = typeof parsed?.score === "string" ? Number(parsed.score) : parsed?.score;
  if (typeof score !== "number" || !Number.isFinite(score)) {
    throw new Error(`the judge's answer has no numeric score: ${JSON.stringify(text.slice(0, 200))}`);
  }
  return { score: Math.min(1, Math.max(0, score)), reason: typeof parsed?.reason === "string" ? parsed.reason : "" };
}
