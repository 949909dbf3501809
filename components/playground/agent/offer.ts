/**
 * The model offer as the Agent tab shows it: each offered tool as a card
 * (with the discovery facts `info` has for the bot's own tools), and what a
 * reload changed between two offers.
 */
import type { ModelOffer, ToolInfo } from "../../api/types.ts";

type OfferedTool = ModelOffer["tools"][number];

/** Where a tool comes from, as its badge reads: an MCP tool names its connection. */
export const sourceLabel = (tool: OfferedTool): string => (tool.source === "mcp" && tool.connection ? `mcp · ${tool.connection}` : tool.source);

/** Every tool in the model's list, in its order; a bot tool keeps what discovery knows of it (execution, effect, approval). */
export function offeredToolCards(offer: ModelOffer, discovered: readonly ToolInfo[]): ToolInfo[] {
  const byName = new Map(discovered.map((tool) => [tool.name, tool]));
  return offer.tools.map((tool) => ({
    ...(tool.source === "bot" || tool.source === "extension" ? byName.get(tool.name) : undefined),
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    source: sourceLabel(tool),
    ...(tool.stubbed ? { stubbed: true } : {}),
  }));
}

export interface OfferChange {
  version: string;
  previousVersion: string;
  added: string[];
  removed: string[];
  promptChanged: boolean;
}

/** What differs between the offer before a reload and after it; undefined when the bot version is the same. */
export function offerChange(before: ModelOffer, after: ModelOffer): OfferChange | undefined {
  if (before.botVersion === after.botVersion) return undefined;
  const had = new Set(before.tools.map((tool) => tool.name));
  const has = new Set(after.tools.map((tool) => tool.name));
  const text = (offer: ModelOffer) => offer.systemPrompt.map((part) => part.text).join("\n\n");
  return {
    version: after.botVersion,
    previousVersion: before.botVersion,
    added: [...has].filter((name) => !had.has(name)),
    removed: [...had].filter((name) => !has.has(name)),
    promptChanged: text(before) !== text(after),
  };
}
