import { defineEval, includes } from "@cursor/bdk/evals";

export default defineEval({
  description: "Inspects the PR before judging it, and does not approve on its own.",
  tags: ["smoke"],
  async test(t) {
    await t.send("Inspect https://github.com/acme/checkout/pull/42 and tell me if it is ready to merge.");
    t.succeeded();
    t.calledTool("inspect_pr", { input: { prUrl: "https://github.com/acme/checkout/pull/42" } });
    t.notCalledTool("approve_pr");
    t.check(t.reply, includes(/ready|trivial|README|merge/i));
  },
});
