import { bearerAuth, defineChannel, GET, localDevStrict, POST } from "@cursor/bdk/channels";
import { z } from "zod";

type AlertState = { source: string };

const token = process.env.WEBHOOK_TOKEN;

/**
 * POST /v1/channels/webhook/alert starts a session per alert; when the bot
 * answers, the "message.completed" delivery event stores the reply in host.kv,
 * where GET /v1/channels/webhook/replies/:sessionId reads it back.
 */
export default defineChannel<AlertState>({
  // Loopback callers always; remote senders with `Authorization: Bearer $WEBHOOK_TOKEN` when it is set.
  auth: token ? [localDevStrict(), bearerAuth(token)] : [localDevStrict()],
  state: { source: "unknown" },
  routes: [
    POST("/alert", {
      description: "Post an alert; the bot triages it in a new session.",
      bodySchema: z.object({
        source: z.string().min(1).describe("Who sent the alert, e.g. grafana"),
        message: z.string().min(1).describe("The alert text"),
      }),
      async handler(_request, { body, send }) {
        const session = await send(body.message, { state: { source: body.source }, title: `Alert from ${body.source}` });
        return Response.json({ sessionId: session.id, continuationToken: session.continuationToken }, { status: 202 });
      },
    }),
    GET("/replies/:sessionId", {
      description: "The stored reply of an alert's session (404 until the bot has answered).",
      async handler(_request, { params, host }) {
        const reply = await host.kv.get(`reply:${params.sessionId}`);
        return reply === undefined ? Response.json({ error: "not_found" }, { status: 404 }) : Response.json(reply);
      },
    }),
  ],
  events: {
    async "message.completed"(event, channel, ctx) {
      // A message that only calls tools is not the answer yet.
      if (event.data.finishReason === "tool-calls") return;
      await ctx.host.kv.put(`reply:${ctx.session.id}`, { source: channel.state.source, text: event.data.text, at: event.at });
    },
  },
});
