import { brand } from "./brand.ts";
import type { AgentDefinition } from "./agent.ts";
import type { ArtifactsDefinition } from "./artifacts.ts";
import type { ChannelDefinition } from "./channels.ts";
import type { ConnectionDefinition } from "./connections.ts";
import type { HookDefinition } from "./hooks.ts";
import type { ScheduleDefinition } from "./schedules.ts";
import type { SkillDefinition } from "./skills.ts";
import type { ToolDefinition, ZodLike } from "./tools.ts";
import { checkSchema } from "./validate-schema.ts";

/** A contribution is a value or a function of the validated config. */
export type Contribution<T, Config> = T | ((config: Config) => T);

// Contributed tools and channels keep their own input/state types; the mount only collects them.
type AnyTool = ToolDefinition<any, any>;
type AnyChannel = ChannelDefinition<any>;

type ConfigOf<Schema> = Schema extends ZodLike<infer Output> ? Output : undefined;
type ConfigInputOf<Schema> = Schema extends { readonly _input: infer Input } ? Input : ConfigOf<Schema>;

export interface ExtensionDefinition<Schema extends ZodLike | undefined = undefined> {
  name: string;
  description?: string;
  /** Validates the mount's config at load; a failure is a `validate` error. */
  configSchema?: Schema;
  tools?: Contribution<Record<string, AnyTool>, ConfigOf<Schema>>;
  skills?: Contribution<Record<string, SkillDefinition>, ConfigOf<Schema>>;
  /** Appended to the root agent's instructions. */
  instructions?: Contribution<string, ConfigOf<Schema>>;
  connections?: Contribution<Record<string, ConnectionDefinition>, ConfigOf<Schema>>;
  hooks?: Contribution<Record<string, HookDefinition>, ConfigOf<Schema>>;
  channels?: Contribution<Record<string, AnyChannel>, ConfigOf<Schema>>;
  schedules?: Contribution<Record<string, ScheduleDefinition>, ConfigOf<Schema>>;
  subagents?: Contribution<Record<string, AgentDefinition>, ConfigOf<Schema>>;
  artifacts?: Contribution<ArtifactsDefinition, ConfigOf<Schema>>;
}

/** What a mount contributes, before the loader renames it `<ns>__<name>`. */
export interface ExtensionContributions {
  tools: Record<string, AnyTool>;
  skills: Record<string, SkillDefinition>;
  instructions?: string;
  connections: Record<string, ConnectionDefinition>;
  hooks: Record<string, HookDefinition>;
  channels: Record<string, AnyChannel>;
  schedules: Record<string, ScheduleDefinition>;
  subagents: Record<string, AgentDefinition>;
  artifacts?: ArtifactsDefinition;
}

/** The default export of `bot/extensions/<ns>.ts`. */
export interface ExtensionMount {
  extension: string;
  description?: string;
  config: unknown;
  /** A Cursor plugin folder (from the project root): the loader reads the contributions from it. */
  pluginDir?: string;
  /** Invalid config or a contribution that threw; the loader reports it as an error. */
  error?: string;
  contributions: ExtensionContributions;
}

export type ExtensionFactory<Schema extends ZodLike | undefined> = undefined extends ConfigInputOf<Schema>
  ? (config?: ConfigInputOf<Schema>) => ExtensionMount
  : (config: ConfigInputOf<Schema>) => ExtensionMount;

const EMPTY_CONTRIBUTIONS: ExtensionContributions = {
  tools: {},
  skills: {},
  connections: {},
  hooks: {},
  channels: {},
  schedules: {},
  subagents: {},
};

function resolve<T, Config>(contribution: Contribution<T, Config> | undefined, config: Config): T | undefined {
  return typeof contribution === "function" ? (contribution as (config: Config) => T)(config) : contribution;
}

function contribute<Schema extends ZodLike | undefined>(
  definition: ExtensionDefinition<Schema>,
  config: ConfigOf<Schema>,
): ExtensionContributions {
  return {
    tools: resolve(definition.tools, config) ?? {},
    skills: resolve(definition.skills, config) ?? {},
    instructions: resolve(definition.instructions, config),
    connections: resolve(definition.connections, config) ?? {},
    hooks: resolve(definition.hooks, config) ?? {},
    channels: resolve(definition.channels, config) ?? {},
    schedules: resolve(definition.schedules, config) ?? {},
    subagents: resolve(definition.subagents, config) ?? {},
    artifacts: resolve(definition.artifacts, config),
  };
}

/**
 * An extension: a bundle of tools, skills, instructions and more, mounted by
 * `bot/extensions/<ns>.ts` with its config. Every contribution is renamed
 * `<ns>__<name>`.
 *
 * @example
 * const ci = defineExtension({
 *   name: "ci",
 *   configSchema: z.object({ repo: z.string() }),
 *   tools: (config) => ({ status: defineTool({ description: `CI status of ${config.repo}`, execute: () => "green" }) }),
 * });
 * // bot/extensions/ci.ts
 * export default ci({ repo: "acme/checkout" });
 */
export function defineExtension<Schema extends ZodLike | undefined = undefined>(
  definition: ExtensionDefinition<Schema>,
): ExtensionFactory<Schema> {
  const factory = (input?: unknown): ExtensionMount => {
    const mount = (config: unknown, contributions: ExtensionContributions, error?: string): ExtensionMount =>
      brand("extension-mount", { extension: definition.name, description: definition.description, config, error, contributions });

    let config: unknown = input;
    if (definition.configSchema) {
      const checked = checkSchema(definition.configSchema, input);
      if (!checked.ok) return mount(input, EMPTY_CONTRIBUTIONS, `invalid config for extension "${definition.name}": ${checked.message}`);
      config = checked.value;
    }
    try {
      return mount(config, contribute(definition, config as ConfigOf<Schema>));
    } catch (error) {
      return mount(config, EMPTY_CONTRIBUTIONS, `extension "${definition.name}" failed to mount: ${(error as Error).message}`);
    }
  };
  return brand("extension", Object.assign(factory, { definition })) as unknown as ExtensionFactory<Schema>;
}

export { cursorPlugin, type CursorPluginOptions } from "./extensions-cursor-plugin.ts";
