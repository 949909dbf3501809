import { defineTool } from "bdk/tools";
import { z } from "zod";
import { findOrder } from "../lib/orders.ts";

export default defineTool({
  description: "Look up an order by its id (e.g. A-1001): status, total and items.",
  effect: "read",
  inputSchema: z.object({ orderId: z.string().regex(/^[A-Za-z]-\d{4}$/, "an order id looks like A-1001") }),
  outputSchema: z.object({ found: z.boolean(), order: z.unknown().optional() }),
  async execute({ orderId }) {
    const order = findOrder(orderId);
    return order ? { found: true, order } : { found: false };
  },
});
