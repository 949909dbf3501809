import { defineEval, includes } from "@cursor/bdk/evals";

export default defineEval({
  description: "Looks up the service before deciding.",
  tags: ["smoke"],
  async test(t) {
    await t.send('Alert from grafana: checkout p95 latency above 2s. Check service_status for "checkout".');
    t.succeeded();
    t.calledTool("service_status", { input: { service: "checkout" } });
    t.check(t.reply, includes(/checkout|degraded|page/i));
  },
});
