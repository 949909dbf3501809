import { agentRoute } from "../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const POST = agentRoute("mcp");
export const GET = agentRoute("mcpMethodNotAllowed");
export const DELETE = agentRoute("mcpMethodNotAllowed");
