import { defineEval, matches } from "bdk/evals";
import { z } from "zod";

/** Id "orders" (index.eval.ts takes its folder's id); cases are "orders/known" and "orders/unknown". */
export default defineEval({
  tags: ["orders"],
  cases: [
    {
      id: "known",
      async test(t) {
        await t.send('Use lookup_order with {"orderId": "A-1002"}.');
        t.calledTool("lookup_order");
        t.check(t.reply, matches(z.string().min(1)));
      },
    },
    {
      id: "unknown",
      async test(t) {
        await t.send('Use lookup_order with {"orderId": "Z-9999"}.');
        t.succeeded();
        t.notCalledTool("update_ticket");
      },
    },
  ],
});
