/**
 * The deployment manifest (`bdk manifest`): what a host must provide to run
 * the project — model, secrets, egress, HTTP routes, schedules and every
 * environment variable the project reads, each with the reason it is read.
 * Derived from the loaded agent only (never from the current environment),
 * so the same project always gives the same manifest.
 */
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { GitHubChannelDefinition } from "../authoring/channels-github.ts";
import type { SlackChannelDefinition } from "../authoring/channels-slack.ts";
import type { ModelSetting } from "../authoring/types.ts";
import { DEFAULT_MODEL, projectInfo } from "../discover/info.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { providerFor } from "../models/providers.ts";
import { connectionTemplateVariables, looksSecret, processEnvReads } from "./env-references.ts";

export interface ManifestModel {
  id: string;
  params: { id: string; value: string }[];
}

export interface EnvVariable {
  name: string;
  /** A credential: listed in `hosting.secretNames`. */
  secret: boolean;
  /** The project cannot work without it (false: optional, or only some paths read it). */
  required: boolean;
  /** Why it is read: `model grok-4.5`, `connection linear`, `channel slack`, a file, ... */
  usedBy: string[];
}

export interface DeploymentManifest {
  name: string;
  /** Content hash of `bot/`, as recorded on each turn. */
  version: string;
  model: ManifestModel;
  modelFallbacks: ManifestModel[];
  persistent: boolean;
  hosting: { egressDomains: string[]; secretNames: string[]; image?: string };
  channels: { id: string; pack?: string; routes: { method: string; path: string; description?: string }[] }[];
  schedules: { name: string; cron: string; kind: "markdown" | "handler" }[];
  env: EnvVariable[];
}

/** Default API hosts of the built-in providers (`compat` points wherever BDK_OPENAI_BASE_URL says). */
const PROVIDER_HOSTS: Record<string, string | undefined> = { xai: "api.x.ai", openai: "api.openai.com", anthropic: "api.anthropic.com" };
const SLACK_HOST = "slack.com";
const GITHUB_HOST = "api.github.com";

class Requirements {
  readonly env = new Map<string, EnvVariable>();
  readonly egress = new Set<string>();

  need(name: string, facts: { secret: boolean; required: boolean; usedBy: string }): void {
    const entry = this.env.get(name) ?? { name, secret: false, required: false, usedBy: [] };
    entry.secret ||= facts.secret;
    entry.required ||= facts.required;
    if (!entry.usedBy.includes(facts.usedBy)) entry.usedBy.push(facts.usedBy);
    this.env.set(name, entry);
  }
}

function modelId(setting: ModelSetting): string {
  return (typeof setting === "string" ? setting : setting.id).trim();
}

function requireModel(needs: Requirements, setting: ModelSetting, usedBy: string, required: boolean): void {
  const route = providerFor(modelId(setting));
  // `scripted` needs nothing; an unknown id is a load-time error reported by validate.
  if (!route) return;
  const variable = route.spec.requiredVariable;
  needs.need(variable, { secret: !variable.endsWith("_URL"), required, usedBy });
  if (route.spec.provider === "compat") needs.need("BDK_OPENAI_API_KEY", { secret: true, required: false, usedBy });
  const host = PROVIDER_HOSTS[route.spec.provider];
  if (host) needs.egress.add(host);
}

function requireChannel(needs: Requirements, id: string, definition: ChannelDefinition): void {
  const usedBy = `channel ${id}`;
  if (definition.pack === "slack") {
    const prefix = (definition as SlackChannelDefinition).slack?.envPrefix;
    const lead = prefix ? (prefix.endsWith("_") ? prefix : `${prefix}_`) : "";
    needs.need(`${lead}SLACK_BOT_TOKEN`, { secret: true, required: true, usedBy });
    needs.need(`${lead}SLACK_SIGNING_SECRET`, { secret: true, required: true, usedBy });
    needs.egress.add(SLACK_HOST);
  } else if (definition.pack === "github") {
    if (!(definition as GitHubChannelDefinition).github?.webhookSecret) {
      needs.need("GITHUB_WEBHOOK_SECRET", { secret: true, required: true, usedBy });
    }
    needs.need("GITHUB_TOKEN", { secret: true, required: true, usedBy });
    needs.egress.add(GITHUB_HOST);
  }
}

export function deploymentManifest(agent: ResolvedAgent): DeploymentManifest {
  const info = projectInfo(agent);
  const config = agent.config;
  const needs = new Requirements();

  requireModel(needs, config.model ?? DEFAULT_MODEL, `model ${info.model.id}`, true);
  for (const fallback of config.modelFallbacks ?? []) requireModel(needs, fallback, `fallback model ${modelId(fallback)}`, false);
  for (const subagent of agent.subagents) {
    if (subagent.config.model) requireModel(needs, subagent.config.model, `subagent ${subagent.id} model ${modelId(subagent.config.model)}`, true);
  }
  needs.need("BDK_MODEL", { secret: false, required: false, usedBy: "overrides every agent's model (BDK_MODEL=scripted runs offline)" });

  for (const name of config.hosting?.secretNames ?? []) needs.need(name, { secret: true, required: true, usedBy: "hosting.secretNames" });
  for (const domain of config.hosting?.egressDomains ?? []) needs.egress.add(domain);

  for (const connection of agent.connections.values()) {
    for (const name of connectionTemplateVariables(connection.definition)) {
      needs.need(name, { secret: true, required: true, usedBy: `connection ${connection.name}` });
    }
    const url = (connection.definition as { url?: unknown }).url;
    if (typeof url === "string") needs.egress.add(new URL(url).hostname);
  }
  for (const [id, definition] of agent.channels) requireChannel(needs, id, definition);

  for (const [name, files] of processEnvReads(agent.rootDir, agent.botDir)) {
    for (const file of files) needs.need(name, { secret: looksSecret(name), required: false, usedBy: file });
  }

  // Code-point order, like the egress list: the same on every machine, whatever its locale.
  const env = [...needs.env.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    name: info.name,
    version: info.version,
    model: { id: info.model.id, params: info.model.params },
    modelFallbacks: info.modelFallbacks.map(({ id, params }) => ({ id, params })),
    persistent: info.persistent,
    hosting: {
      egressDomains: [...needs.egress].sort(),
      secretNames: env.filter((variable) => variable.secret).map((variable) => variable.name),
      ...(config.hosting?.image ? { image: config.hosting.image } : {}),
    },
    channels: info.channels,
    schedules: info.schedules.map(({ name, cron, kind }) => ({ name, cron, kind })),
    env,
  };
}
