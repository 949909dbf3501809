/**
 * `cursorCloudAgents(...)`: mount Cursor Cloud Agents (the public HTTP API at
 * api.cursor.com, authenticated with `CURSOR_API_KEY`) as tools.
 *
 * @example
 * // bot/extensions/cloud.ts → tools cloud__launch, cloud__get, ...
 * import cursorCloudAgents from "@cursor/bdk/extensions/cursor-cloud-agents";
 * export default cursorCloudAgents({
 *   cloud: { repos: [{ url: "https://github.com/acme/checkout", startingRef: "main" }], autoCreatePR: true },
 *   model: { id: "claude-4-sonnet", params: [{ id: "thinking", value: "high" }] },
 * });
 */
import { z } from "zod";
import { defineExtension } from "./extensions.ts";
import { defineSkill } from "./skills.ts";
import { defineTool } from "./tools.ts";
import { asToolResult, CursorApiError, cursorRequest, modelIdOf, modelSettingSchema } from "./cursor-api.ts";
import { formatIssues } from "./validate-schema.ts";
import type { ModelSetting } from "./types.ts";

const SERVICE = "Cursor Cloud Agents";

const repoSchema = z.object({
  url: z.string().url(),
  /** The branch or commit the agent starts from. */
  startingRef: z.string().optional(),
  /** An existing pull request to work on instead. */
  prUrl: z.string().url().optional(),
});

const cloudSchema = z.object({ repos: z.array(repoSchema).min(1), autoCreatePR: z.boolean().optional() });

const configSchema = z.object({
  cloud: cloudSchema,
  model: modelSettingSchema.optional(),
  needsApproval: z.boolean().optional(),
});

const launchSchema = z.object({
  name: z.string().optional(),
  prompt: z.string().min(1),
  model: modelSettingSchema.optional(),
  cloud: cloudSchema,
});

export type CursorCloudAgentsConfig = z.input<typeof configSchema>;
export type CloudAgentRepo = z.infer<typeof repoSchema>;

export interface LaunchCloudAgentOptions {
  /** Shown in Cursor's list of agents. */
  name?: string;
  prompt: string;
  model?: ModelSetting;
  /** The Cloud Agents API takes one source per agent: the first repo is the one launched on. */
  cloud: { repos: CloudAgentRepo[]; autoCreatePR?: boolean };
}

/** `source` of the launch request: an existing PR, or the repository at its starting ref. */
function sourceOf(repo: CloudAgentRepo): Record<string, string | undefined> {
  return repo.prUrl ? { prUrl: repo.prUrl } : { repository: repo.url, ref: repo.startingRef };
}

/**
 * Launches one cloud agent (`POST /v0/agents`); throws when `CURSOR_API_KEY`
 * is unset, the options are malformed (naming the field) or the API refuses.
 * The model goes by its id (the API takes no model params).
 */
export async function launchCloudAgent(ctx: { abortSignal?: AbortSignal }, options: LaunchCloudAgentOptions): Promise<unknown> {
  const parsed = launchSchema.safeParse(options);
  if (!parsed.success) throw new CursorApiError(`launchCloudAgent: ${formatIssues(parsed.error)}`);
  const { name, prompt, model, cloud } = parsed.data;
  return cursorRequest("/v0/agents", {
    method: "POST",
    signal: ctx.abortSignal,
    body: {
      name,
      prompt: { text: prompt },
      source: sourceOf(cloud.repos[0]),
      target: { autoCreatePr: cloud.autoCreatePR ?? false },
      model: modelIdOf(model),
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
        ref: z.string().optional().describe("Branch or commit to start from; default the repository's startingRef"),
        prUrl: z.string().optional().describe("Work on this existing pull request instead"),
        name: z.string().optional().describe("A short name for the agent"),
      }),
      dryRunResult: ({ prompt }) => ({ dryRun: true, prompt }),
      execute: ({ prompt, repository, ref, prUrl, name }, ctx) => {
        const [first] = config.cloud.repos;
        const configured = repository === undefined ? first : config.cloud.repos.find((candidate) => candidate.url === repository);
        const repo: CloudAgentRepo = {
          url: repository ?? first.url,
          startingRef: ref ?? configured?.startingRef,
          prUrl: prUrl ?? configured?.prUrl,
        };
        return asToolResult(SERVICE, () =>
          launchCloudAgent(ctx, { name, prompt, model: config.model, cloud: { repos: [repo], autoCreatePR: config.cloud.autoCreatePR } }),
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

export default cursorCloudAgents;
