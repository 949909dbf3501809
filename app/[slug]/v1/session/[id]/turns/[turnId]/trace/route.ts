import { agentRoute } from "../../../../../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const GET = agentRoute("turnTrace");
