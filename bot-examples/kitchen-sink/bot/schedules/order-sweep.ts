import { defineSchedule } from "bdk/schedules";
import orders from "../channels/orders.ts";

export default defineSchedule({
  cron: "*/15 * * * *",
  async run({ callTool, receive, waitUntil, appAuth }) {
    const { isError, result } = await callTool("lookup_order", { orderId: "A-1002" });
    if (isError || !(result as { found: boolean }).found) return;
    waitUntil(
      receive(orders, {
        message: "Order A-1002 is still unshipped after payment. Check it and say what to do.",
        auth: appAuth,
        state: { customerEmail: "ops@shop.example" },
      }),
    );
  },
});
