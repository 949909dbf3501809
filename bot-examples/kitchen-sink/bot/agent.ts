import { defineAgent } from "bdk";

export default defineAgent({
  description: "Answers a shop's customers about orders and returns; every capability of the kit in one place.",
  model: { id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }] },
  // Harness built-ins the model may use (the allowlist); "task" reaches the subagent, "load_skill" the skills.
  tools: ["read", "grep", "glob", "ls", "load_skill", "task"],
  builtinTools: { reminders: true },
  concurrency: { maxRunningTurns: 4 },
  hosting: { secretNames: ["SHOP_API_TOKEN"], egressDomains: ["api.shop.example"] },
});
