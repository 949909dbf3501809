/**
 * Opens the agent a command works on (`selectAgent`). In a folder of agents
 * (`--dir parent --slug a`) it keeps the layout `bdk serve` uses for that
 * folder: the state of agent `a` is `<state root>/a`, and a peer connection
 * (`agent: "b"`) reaches the sibling agent `b`, opened on first use.
 */
import path from "node:path";
import type { AgentSelection } from "../discover/host.ts";
import { connectPeerAgent } from "../mcp/peer.ts";
import { defaultStateRoot, openAgent, type OpenAgentOptions, type OpenedAgent } from "./open-agent.ts";

type Selected = Extract<AgentSelection, { ok: true }>;

export async function openSelectedAgent(selection: Selected, options: Omit<OpenAgentOptions, "slug" | "connectPeer"> = {}): Promise<OpenedAgent> {
  const { host, slug } = selection;
  if (!host || !slug) return openAgent(selection.dir, options);

  const opening = new Map<string, Promise<OpenedAgent>>();
  const open = (agentSlug: string, dir: string): Promise<OpenedAgent> => {
    let agent = opening.get(agentSlug);
    if (!agent) {
      agent = openAgent(dir, {
        ...options,
        slug: agentSlug,
        stateRoot: path.join(options.stateRoot ?? defaultStateRoot(host.dir), agentSlug),
        connectPeer: async (peerSlug) => {
          const peer = host.agents.find((candidate) => candidate.slug === peerSlug);
          if (!peer) throw new Error(`the agents of ${host.dir} are ${host.agents.map((candidate) => candidate.slug).join(", ")}`);
          return connectPeerAgent(new Map([[peerSlug, await open(peer.slug, peer.dir)]]), peerSlug, agentSlug);
        },
      });
      opening.set(agentSlug, agent);
    }
    return agent;
  };

  const opened = await open(slug, selection.dir);
  const closeSelected = opened.close;
  opened.close = async () => {
    await closeSelected();
    const peers = [...opening].filter(([agentSlug]) => agentSlug !== slug).map(([, peer]) => peer);
    await Promise.all(peers.map(async (peer) => (await peer.catch(() => undefined))?.close()));
  };
  return opened;
}
