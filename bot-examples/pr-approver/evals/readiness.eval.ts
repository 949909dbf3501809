import { defineEval, includes } from "bdk/evals";

export default defineEval({
  tags: ["smoke"],
  async test(t) {
    await t.send("Inspect https://github.com/acme/checkout/pull/42 and tell me if it is ready.");
    t.succeeded();
    t.calledTool("inspect_pr", { input: { prUrl: "https://github.com/acme/checkout/pull/42" } });
    t.notCalledTool("submit_review");
    t.check(t.reply, includes(/ready|trivial|approve|README/i));
  },
});
