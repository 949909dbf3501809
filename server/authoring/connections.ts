import { brand } from "./brand.ts";

interface ConnectionCommon {
  description?: string;
  /** Whether the model sees this connection's tools (mcp-connections only). */
  advertiseTools?: boolean;
  /** Only these tool names (exact) are exposed. */
  include?: string[];
  /** These tool names are hidden. */
  exclude?: string[];
}

/** A remote MCP server (streamable HTTP, SSE fallback). `${NAME}` in headers is resolved from the environment on connect. */
export interface RemoteConnection extends ConnectionCommon {
  url: string;
  headers?: Record<string, string>;
  oauth?: true;
}

/** A local MCP server started as a child process. `${NAME}` in env is resolved on start. */
export interface StdioConnection extends ConnectionCommon {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** Another agent mounted on the same host, reached through its `/v1/mcp`. */
export interface PeerConnection extends ConnectionCommon {
  agent: string;
}

export type ConnectionDefinition = RemoteConnection | StdioConnection | PeerConnection;

/**
 * `bot/mcp-connections/<name>.ts` or `bot/host-connections/<name>.ts`.
 *
 * @example
 * export default defineConnection({ url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer ${LINEAR_TOKEN}" } });
 */
export function defineConnection<T extends ConnectionDefinition>(definition: T): T {
  return brand("connection", definition);
}
