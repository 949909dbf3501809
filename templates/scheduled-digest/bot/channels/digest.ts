import { defineChannel, GET } from "@cursor/bdk/channels";

/**
 * Where scheduled work lands: the stale-check schedule hands its prompt in
 * with receive(digest, ...), and the delivery event keeps the latest answer,
 * readable at GET /v1/channels/digest/latest.
 */
export default defineChannel({
  routes: [
    GET("/latest", {
      description: "The latest digest the bot wrote for a schedule.",
      async handler(_request, { host }) {
        const latest = await host.kv.get("digest:latest");
        return latest === undefined ? Response.json({ error: "not_found" }, { status: 404 }) : Response.json(latest);
      },
    }),
  ],
  events: {
    async "message.completed"(event, _channel, ctx) {
      if (event.data.finishReason === "tool-calls") return;
      await ctx.host.kv.put("digest:latest", { text: event.data.text, at: event.at, sessionId: ctx.session.id });
    },
  },
});
