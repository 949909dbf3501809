// The eve peer's agent: eve's own deterministic fixture model (`mockModel`
// from eve/evals, no delay), the same reply as the Mastra peer's mock.
// Copied into bench/.work/peers/eve/agent, built by `eve build`.
import { defineAgent } from "eve";
import { mockModel } from "eve/evals";

export default defineAgent({
  model: mockModel("Hello from the mock model."),
});
