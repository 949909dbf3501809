import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OpenedAgent } from "../host/open-agent.ts";

/**
 * A peer-agent connection (`agent: "<slug>"`): the peer's own MCP server
 * (what `/v1/mcp` serves), linked in-process, so no HTTP round trip and no
 * token between agents of one host. The calling agent is the principal of
 * the sessions `ask` starts on the peer (`service:agent:<caller>`).
 */
export async function connectPeerAgent(
  mounted: ReadonlyMap<string, OpenedAgent>,
  peerSlug: string,
  callerName: string,
): Promise<Transport> {
  const peer = mounted.get(peerSlug);
  if (!peer) throw new Error(`the agents mounted here are ${[...mounted.keys()].join(", ")}`);
  const [{ InMemoryTransport }, { createAgentMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/inMemory.js"),
    import("./agent-mcp-server.ts"),
  ]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createAgentMcpServer(peer, { type: "service", id: `agent:${callerName}` }).connect(serverSide);
  return clientSide;
}
