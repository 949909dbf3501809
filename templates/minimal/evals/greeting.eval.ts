import { defineEval, satisfies } from "@cursor/bdk/evals";

export default defineEval({
  description: "Answers a greeting without tools.",
  tags: ["smoke"],
  async test(t) {
    await t.send("Hello! Who are you?");
    t.succeeded();
    t.usedNoTools();
    t.check(t.reply, satisfies((reply) => typeof reply === "string" && reply.trim().length > 0, "a non-empty reply"));
  },
});
