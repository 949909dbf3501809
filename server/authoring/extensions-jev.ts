/**
 * `decide`: the jev decision extension. Mount it with `export default decide()`
 * (or `export default decide`) in `bot/extensions/<ns>.ts`; it contributes the
 * tool `<ns>__decide`, so projects that mount it validate and list it. The
 * hosted decision service behind it is not part of the self-hosted kit: a call
 * returns an error result (naming `CURSOR_API_KEY` when that is unset).
 */
import { z } from "zod";
import { defineExtension } from "./extensions.ts";
import { defineTool } from "./tools.ts";
import { CURSOR_API_KEY, cursorApiKey, errorResult, missingCredential, modelSettingSchema } from "./cursor-api.ts";

export const decide = defineExtension({
  name: "jev",
  description: "Structured decisions: pick one option and say why.",
  // Published projects pass the decision model; the hosted service would use it.
  configSchema: z.object({ model: modelSettingSchema.optional() }).optional(),
  tools: () => ({
    decide: defineTool({
      description: "Decide between options for a question; returns the chosen option and the reason.",
      effect: "read",
      inputSchema: z.object({
        question: z.string(),
        options: z.array(z.string()).min(2),
        context: z.string().optional(),
      }),
      execute: () =>
        cursorApiKey()
          ? errorResult("The jev decision service is not available in self-hosted BDK.")
          : missingCredential(CURSOR_API_KEY, "jev decide"),
    }),
  }),
});

export default decide;
