/**
 * The modules user code imports as `@cursor/bdk[/<sub>]`, `@cursor/july[/<sub>]`,
 * `@grok/agent-sdk[/<sub>]` or our own `bdk[/<sub>]`. They are handed to jiti
 * as already-loaded virtual modules, so user code shares one copy with the
 * host (same objects, no re-transpiling).
 */
import * as agentSdk from "../authoring/index.ts";
import * as artifacts from "../authoring/artifacts.ts";
import * as channels from "../authoring/channels.ts";
import * as channelsGithub from "../authoring/channels-github.ts";
import * as channelsSlack from "../authoring/channels-slack.ts";
import * as connections from "../authoring/connections.ts";
import * as evals from "../authoring/evals.ts";
import * as extensions from "../authoring/extensions.ts";
import * as cursorCloudAgents from "../authoring/extensions-cursor-cloud-agents.ts";
import * as cursorPlugin from "../authoring/extensions-cursor-plugin.ts";
import * as cursorGrokBotAgents from "../authoring/extensions-cursor-grokbot-agents.ts";
import * as jev from "../authoring/extensions-jev.ts";
import * as hooks from "../authoring/hooks.ts";
import * as memory from "../authoring/memory.ts";
import * as prompt from "../authoring/prompt.ts";
import * as reminders from "../authoring/reminders.ts";
import * as result from "../authoring/result.ts";
import * as schedules from "../authoring/schedules.ts";
import * as skills from "../authoring/skills.ts";
import * as tools from "../authoring/tools.ts";

/** Subpath (`""` for the root) → module, mirroring package.json "exports". */
export const AUTHORING_SUBPATHS: Record<string, object> = {
  "": agentSdk,
  prompt,
  tools,
  skills,
  connections,
  hooks,
  artifacts,
  result,
  channels,
  "channels/slack": channelsSlack,
  "channels/github": channelsGithub,
  schedules,
  reminders,
  evals,
  memory,
  extensions,
  "extensions/cursor-cloud-agents": cursorCloudAgents,
  "extensions/cursor-plugin": cursorPlugin,
  "extensions/cursor-grokbot-agents": cursorGrokBotAgents,
  "extensions/jev": jev,
};

/** Our package name first; the others are names projects written for the published kit use. */
export const PACKAGE_ALIASES = ["bdk", "@cursor/bdk", "@cursor/july", "@grok/agent-sdk"] as const;

export function authoringVirtualModules(): Record<string, object> {
  const modules: Record<string, object> = {};
  for (const name of PACKAGE_ALIASES) {
    for (const [subpath, module] of Object.entries(AUTHORING_SUBPATHS)) {
      modules[subpath ? `${name}/${subpath}` : name] = module;
    }
  }
  return modules;
}
