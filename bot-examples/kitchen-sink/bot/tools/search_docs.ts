import { defineTool } from "bdk/tools";

const DOCS: Record<string, string> = {
  returns: "Unused items can be returned within 30 days for a full refund.",
  shipping: "Orders ship within 2 business days; tracking arrives by email.",
};

/** A tool with a plain JSON Schema input: passed to the model as is; execute gets an untyped object. */
export default defineTool({
  description: "Search the shop's policy documents (returns, shipping).",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", description: "What to look for" } },
    required: ["query"],
  },
  async execute(input) {
    const query = String(input.query ?? "").toLowerCase();
    const hits = Object.entries(DOCS).filter(([topic, text]) => query.includes(topic) || text.toLowerCase().includes(query));
    return { hits: hits.map(([topic, text]) => ({ topic, text })) };
  },
});
