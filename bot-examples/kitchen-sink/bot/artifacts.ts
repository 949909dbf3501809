import { defineArtifacts } from "bdk/artifacts";
import { z } from "zod";

export default defineArtifacts({
  kinds: {
    "order-note": {
      description: "A note about an order, kept across sessions.",
      schema: z.object({ orderId: z.string(), note: z.string() }),
    },
  },
  agentTool: true,
  max: 200,
});
