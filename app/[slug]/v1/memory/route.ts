import { agentRoute } from "../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const GET = agentRoute("listMemory");
export const DELETE = agentRoute("forgetMemory");
