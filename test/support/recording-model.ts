/** The scripted model, recording the prompt of every step, and readers of what a recorded prompt says. */
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { createScriptedModel } from "../../server/models/index.ts";

export function recordingModel(prompts: LanguageModelV3Prompt[]): LanguageModelV3 {
  const scripted = createScriptedModel({ agentName: "test" });
  return { ...scripted, doStream: (call) => (prompts.push(call.prompt), scripted.doStream(call)) };
}

/** The text of each user message of a prompt. */
export const userTexts = (prompt: LanguageModelV3Prompt) =>
  prompt.filter((message) => message.role === "user").map((message) => message.content.map((part) => ("text" in part ? part.text : "")).join(""));
