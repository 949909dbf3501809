import { defineAgent } from "@cursor/bdk";

export default defineAgent({
  // The default model, spelled out so you can see where to change it (needs XAI_API_KEY).
  model: { id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }] },
});
