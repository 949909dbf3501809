import { agentRoute } from "../../../../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const POST = agentRoute("resolveInDoubt");
