/**
 * `cursorCloudAgents(...)`: mount Cursor Cloud Agents (the public HTTP API at
 * api.cursor.com, authenticated with `CURSOR_API_KEY`) as tools.
 *
 * @example
 * // bot/extensions/cloud.ts → tools cloud__launch, cloud__get, ...
 * export default cursorCloudAgents({ cloud: { repos: [{ url: "https://github.com/acme/checkout", startingRef: "main" }], autoCreatePR: true } });
 */
import { z } from "zod";
import { defineExtension } from "./extensions.ts";
import { defineSkill } from "./skills.ts";
import { defineTool } from "./tools.ts";
import { asToolResult, cursorRequest } from "./cursor-api.ts";

const SERVICE = "Cursor Cloud Agents";

const configSchema = z.object({
  cloud: z.object({
    repos: z.array(z.object({ url: z.string().url(), startingRef: z.string().optional() })).min(1),
    autoCreatePR: z.boolean().optional(),
  }),
  model: z.string().optional(),
  needsApproval: z.boolean().optional(),
});

export type CursorCloudAgentsConfig = z.input<typeof configSchema>;

export interface LaunchCloudAgentOptions {
  prompt: string;
  /** Repository URL, e.g. `https://github.com/acme/checkout`. */
  repository: string;
  ref?: string;
  autoCreatePR?: boolean;
  model?: string;
}

/** Launches one cloud agent; throws when `CURSOR_API_KEY` is unset or the API refuses. */
export async function launchCloudAgent(ctx: { abortSignal?: AbortSignal }, options: LaunchCloudAgentOptions): Promise<unknown> {
  return cursorRequest("/v0/agents", {
    method: "POST",
    signal: ctx.abortSignal,
    body: {
      prompt: { text: options.prompt },
      source: { repository: options.repository, ref: options.ref },
      target: { autoCreatePr: options.autoCreatePR ?? false },
      model: options.model,
    },
  });
}

const agentId = z.object({ id: z.string().describe("The cloud agent id, e.g. bc_abc123") });

export const cursorCloudAgents = defineExtension({
  name: "cursor-cloud-agents",
  description: "Launch and follow Cursor Cloud Agents that work on a repository and open pull requests.",
  configSchema,
  tools: (config) => ({
    launch: defineTool({
      description: `Launch a cloud agent on a repository (${config.cloud.repos.map((repo) => repo.url).join(", ")}).`,
      effect: "write",
      needsApproval: config.needsApproval ?? false,
      inputSchema: z.object({
        prompt: z.string().describe("The task for the agent"),
        repository: z.string().optional().describe("Repository URL; default the first configured one"),
        ref: z.string().optional(),
      }),
      dryRunResult: ({ prompt }) => ({ dryRun: true, prompt }),
      execute: ({ prompt, repository, ref }, ctx) => {
        const repo = config.cloud.repos.find((candidate) => candidate.url === repository) ?? config.cloud.repos[0];
        return asToolResult(SERVICE, () =>
          launchCloudAgent(ctx, {
            prompt,
            repository: repository ?? repo.url,
            ref: ref ?? repo.startingRef,
            autoCreatePR: config.cloud.autoCreatePR,
            model: config.model,
          }),
        );
      },
    }),
    get: defineTool({
      description: "Status of a cloud agent (branch, PR URL, summary).",
      effect: "read",
      inputSchema: agentId,
      execute: ({ id }, ctx) => asToolResult(SERVICE, () => cursorRequest(`/v0/agents/${encodeURIComponent(id)}`, { signal: ctx.abortSignal })),
    }),
    list: defineTool({
      description: "List recent cloud agents.",
      effect: "read",
      inputSchema: z.object({ limit: z.number().int().min(1).max(100).optional() }),
      execute: ({ limit }, ctx) =>
        asToolResult(SERVICE, () => cursorRequest(`/v0/agents?limit=${limit ?? 20}`, { signal: ctx.abortSignal })),
    }),
    dump: defineTool({
      description: "The full conversation of a cloud agent.",
      effect: "read",
      inputSchema: agentId,
      execute: ({ id }, ctx) =>
        asToolResult(SERVICE, () => cursorRequest(`/v0/agents/${encodeURIComponent(id)}/conversation`, { signal: ctx.abortSignal })),
    }),
    reply: defineTool({
      description: "Send a follow-up instruction to a running cloud agent.",
      effect: "write",
      inputSchema: agentId.extend({ message: z.string() }),
      execute: ({ id, message }, ctx) =>
        asToolResult(SERVICE, () =>
          cursorRequest(`/v0/agents/${encodeURIComponent(id)}/followup`, {
            method: "POST",
            body: { prompt: { text: message } },
            signal: ctx.abortSignal,
          }),
        ),
    }),
    cancel: defineTool({
      description: "Stop a running cloud agent.",
      effect: "write",
      inputSchema: agentId,
      execute: ({ id }, ctx) =>
        asToolResult(SERVICE, () =>
          cursorRequest(`/v0/agents/${encodeURIComponent(id)}/stop`, { method: "POST", signal: ctx.abortSignal }),
        ),
    }),
  }),
  skills: {
    handoff: defineSkill({
      description: "Hand a coding task to a Cursor cloud agent and follow it to a pull request.",
      markdown: [
        "# Hand off to a cloud agent",
        "",
        "1. Write a self-contained task: goal, files involved, acceptance criteria.",
        "2. Call `launch` with it; note the returned id.",
        "3. Poll `get` until the status is FINISHED or ERROR; use `reply` to steer, `cancel` to stop.",
        "4. Report the PR URL (or the error) in one sentence.",
      ].join("\n"),
    }),
  },
});
