import { defineHook } from "bdk/hooks";

export default defineHook({
  events: {
    "turn.completed"(event, ctx) {
      ctx.host.otel.increment("turns.completed", { session: ctx.session.id });
      ctx.host.otel.increment("tokens.output", event.data.usage.outputTokens);
    },
  },
});
