import { defineEval, includes } from "bdk/evals";

export default defineEval({
  tags: ["smoke"],
  async test(t) {
    await t.send('Use lookup_order with {"orderId": "A-1001"} and tell me its status.');
    t.succeeded();
    t.calledTool("lookup_order", { input: { orderId: "A-1001" } });
    t.check(t.reply, includes(/shipped|A-1001/i));
  },
});
