// The shop's warehouse as a stdio MCP server: what bot/mcp-connections/warehouse.ts starts.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const STOCK = { "MUG-BLUE": 12, "MUG-RED": 0, "TEE-L": 40 };

const server = new McpServer({ name: "warehouse", version: "1.0.0" });
server.registerTool(
  "stock_level",
  {
    description: "Units in stock for a SKU (e.g. MUG-BLUE).",
    inputSchema: { sku: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ sku }) => {
    const units = STOCK[sku.toUpperCase()];
    if (units === undefined) return { content: [{ type: "text", text: `Unknown SKU ${sku}.` }], isError: true };
    return { content: [{ type: "text", text: JSON.stringify({ sku: sku.toUpperCase(), units }) }] };
  },
);

await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
