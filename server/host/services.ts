import type { HostServices, JsonValue, RemindersApi } from "../authoring/types.ts";
import { githubClientFactory } from "../channels/github/octokit.ts";
import { slackHostServices } from "../channels/slack/slack-client.ts";
import { BdkError } from "../protocol/errors.ts";
import type { McpConnections } from "../mcp/connections.ts";
import type { AsyncStore } from "../store/async-store.ts";
import { createHostOtel, type MetricsSink } from "../telemetry/host-otel.ts";
import type { Logger } from "./logger.ts";

export interface HostServicesOptions {
  agentName: string;
  store: AsyncStore;
  logger: Logger;
  /** Where `GITHUB_TOKEN` and `GITHUB_API_URL` are read (default: none set). */
  env?: Record<string, string | undefined>;
  /** The durable reminders of this agent (`server/reminders`); without it, creating one fails. */
  reminders?: RemindersApi;
  /** The agent's MCP clients (`server/mcp`); without them, `host.mcp` lists nothing. */
  mcp?: Pick<McpConnections, "names" | "callTool">;
  /** OpenTelemetry instruments for `host.otel` (`server/telemetry`); without them, values are debug log lines. */
  metrics?: MetricsSink;
}

/**
 * The `host` object tools, channel handlers and schedules receive. Services
 * whose capability is not configured fail with a message naming what to set.
 */
export function createHostServices(options: HostServicesOptions): HostServices {
  const { agentName, store, logger, mcp } = options;
  return {
    kv: {
      async get(key) {
        return (await store.kv.get(agentName, key)) as JsonValue | undefined;
      },
      async put(key, value) {
        await store.kv.put(agentName, key, value);
      },
      async delete(key) {
        await store.kv.delete(agentName, key);
      },
    },
    mcp: mcp
      ? { names: () => mcp.names(), callTool: (connection, tool, args, options) => mcp.callTool(connection, tool, args, options?.signal) }
      : {
          names: () => [],
          async callTool(connection) {
            throw new BdkError("not_ready", `ctx.host.mcp.callTool("${connection}", ...): MCP clients are not available in this process.`);
          },
        },
    github: { getOctokit: githubClientFactory(options.env ?? {}) },
    slack: slackHostServices(options.env ?? {}),
    reminders: options.reminders ?? {
      async create() {
        throw new BdkError("not_ready", "Reminders are not available in this process.");
      },
      async list() {
        return [];
      },
      async cancel() {},
    },
    otel: createHostOtel(logger, options.metrics),
  };
}
