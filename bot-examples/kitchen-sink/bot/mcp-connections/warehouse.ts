import { defineConnection } from "bdk/connections";

// A local MCP server started on first use; the model sees its tools as warehouse__<tool>.
export default defineConnection({
  description: "Stock levels from the warehouse",
  command: "node",
  args: ["mcp/warehouse-server.mjs"],
});
