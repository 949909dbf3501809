import { defineEval, satisfies } from "@cursor/bdk/evals";

export default defineEval({
  description: "Answers a greeting briefly, without tools.",
  tags: ["smoke"],
  async test(t) {
    await t.send("Hello! What can you help me with?");
    t.succeeded();
    t.usedNoTools();
    t.check(t.reply, satisfies((reply) => typeof reply === "string" && reply.trim().length > 0 && reply.length < 1500, "a short, non-empty reply"));
  },
});
