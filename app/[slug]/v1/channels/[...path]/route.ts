import { channelRoute } from "../../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const GET = channelRoute();
export const POST = channelRoute();
