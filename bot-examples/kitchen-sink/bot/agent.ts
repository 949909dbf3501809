import { defineAgent } from "bdk";

export default defineAgent({
  model: { id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }] },
  tools: ["read", "grep", "glob", "ls"],
  builtinTools: { reminders: true },
  concurrency: { maxRunningTurns: 4 },
  hosting: { secretNames: ["SHOP_API_TOKEN"], egressDomains: ["api.shop.example"] },
});
