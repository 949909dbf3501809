/** The scripted model, recording the prompt (and, when asked, the whole call: tools offered too) of every step, and readers of what a recorded prompt says. */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { createScriptedModel } from "../../server/models/index.ts";

export function recordingModel(prompts: LanguageModelV3Prompt[], calls: LanguageModelV3CallOptions[] = []): LanguageModelV3 {
  const scripted = createScriptedModel({ agentName: "test" });
  return { ...scripted, doStream: (call) => (prompts.push(call.prompt), calls.push(call), scripted.doStream(call)) };
}

/** The text of each user message of a prompt. */
export const userTexts = (prompt: LanguageModelV3Prompt) =>
  prompt.filter((message) => message.role === "user").map((message) => message.content.map((part) => ("text" in part ? part.text : "")).join(""));
