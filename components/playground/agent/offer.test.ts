import { describe, expect, it } from "vitest";
import type { ModelOffer } from "../../api/types.ts";
import { offerChange, offeredToolCards } from "./offer.ts";

const offer = (botVersion: string, tools: string[], prompt = "You help."): ModelOffer => ({
  botVersion,
  systemPrompt: [{ source: "instructions", text: prompt }],
  tools: tools.map((name) => ({ name, source: name.includes("__") ? "mcp" : "bot", connection: name.includes("__") ? name.split("__")[0] : undefined, description: name })),
});

describe("the Agent tab's model offer", () => {
  it("shows every offered tool in order, bot tools with what discovery knows, MCP tools naming their connection", () => {
    const cards = offeredToolCards(offer("v1", ["lookup", "warehouse__stock"]), [{ name: "lookup", effect: "read", execution: "server" }]);
    expect(cards.map((card) => [card.name, card.source, card.effect])).toEqual([
      ["lookup", "bot", "read"],
      ["warehouse__stock", "mcp · warehouse", undefined],
    ]);
  });

  it("says what a reload changed, and nothing when the version is the same", () => {
    expect(offerChange(offer("v1", ["a"]), offer("v1", ["a", "b"]))).toBeUndefined();
    expect(offerChange(offer("v1", ["a", "b"]), offer("v2", ["b", "c"], "You help a lot."))).toEqual({
      version: "v2",
      previousVersion: "v1",
      added: ["c"],
      removed: ["a"],
      promptChanged: true,
    });
  });
});
