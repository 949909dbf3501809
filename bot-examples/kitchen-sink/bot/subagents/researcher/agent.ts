import { defineAgent } from "bdk";

export default defineAgent({
  description: "Researches open-ended questions about the shop's policies and past orders, and reports findings with sources.",
  tools: ["read", "grep"],
});
