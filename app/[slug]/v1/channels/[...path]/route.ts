import { channelRoute } from "../../../../../web/route-adapter.ts";

export const dynamic = "force-dynamic";
export const GET = channelRoute();
export const POST = channelRoute();
// Channel routes take GET and POST; other methods reach the channel too, so the refusal names its routes.
export const PUT = channelRoute();
export const PATCH = channelRoute();
export const DELETE = channelRoute();
