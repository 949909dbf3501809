import { agentRoute } from "../../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const GET = agentRoute("getSession");
export const POST = agentRoute("followUp");
export const DELETE = agentRoute("deleteSession");
