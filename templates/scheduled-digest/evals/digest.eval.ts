import { defineEval, includes } from "@cursor/bdk/evals";

export default defineEval({
  description: "Reads the items before writing the digest.",
  tags: ["smoke"],
  async test(t) {
    await t.send("Run open_items and write the digest.");
    t.succeeded();
    t.calledTool("open_items");
    t.check(t.reply, includes(/OPS-12|stale|items/i));
  },
});
