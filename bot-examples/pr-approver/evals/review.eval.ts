import { defineEval, includes } from "bdk/evals";

const REVIEW = {
  prUrl: "https://github.com/acme/checkout/pull/42",
  verdict: "approve",
  body: "Trivial README fix and CI passes.",
};

/** submit_review needs approval: the case answers it like a reviewer in the playground would. */
export default defineEval({
  description: "Submitting a review waits for a person's approval, and a dry run never reaches GitHub.",
  tags: ["approvals"],
  cases: [
    {
      id: "approved",
      async test(t) {
        await t.send(`Approve the PR with submit_review ${JSON.stringify(REVIEW)}`);
        await t.approve();
        t.succeeded();
        t.calledTool("submit_review", { input: { prUrl: REVIEW.prUrl, verdict: "approve" }, count: 1 });
        // Evals run dry: the write tool answers with its dryRunResult.
        t.check(JSON.stringify(t.events), includes('"dryRun":true'));
      },
    },
    {
      id: "denied",
      async test(t) {
        await t.send(`Approve the PR with submit_review ${JSON.stringify(REVIEW)}`);
        await t.deny("not today");
        t.succeeded();
        t.check(t.reply, includes(/not run|denied|not today/i));
      },
    },
  ],
});
