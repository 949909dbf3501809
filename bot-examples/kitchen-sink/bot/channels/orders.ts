import { defineChannel, POST } from "bdk/channels";
import { z } from "zod";

type OrderState = { customerEmail: string };

export default defineChannel<OrderState>({
  state: { customerEmail: "" },
  routes: [
    POST("/question", {
      description: "Ask about an order on behalf of a customer.",
      bodySchema: z.object({ customerEmail: z.string().email(), question: z.string().min(1) }),
      async handler(_request, { body, send }) {
        const session = await send(body.question, { state: { customerEmail: body.customerEmail }, title: `Question from ${body.customerEmail}` });
        return Response.json({ sessionId: session.id, continuationToken: session.continuationToken }, { status: 202 });
      },
    }),
  ],
  events: {
    async "message.completed"(event, channel, ctx) {
      if (event.data.finishReason === "tool-calls") return;
      // A real channel would email the answer; the example records it.
      await ctx.host.kv.put(`answer:${channel.state.customerEmail}`, event.data.text);
    },
  },
});
