/** Test support: the small "shop" project eval tests and benchmarks run against. */

export const SHOP_BOT: Record<string, string> = {
  "package.json": '{ "name": "shop", "type": "module" }',
  "bot/instructions.md": "You help with orders.",
  "bot/tools/lookup_order.ts": `
    import { defineTool } from "@cursor/bdk/tools";
    import { z } from "zod";
    export default defineTool({
      description: "Look up an order by id.",
      effect: "read",
      inputSchema: z.object({ orderId: z.string() }),
      async execute({ orderId }) { return { orderId, status: "shipped" }; },
    });`,
};

/** A write tool behind approval, with a dry-run result. */
export const REFUND_TOOL: Record<string, string> = {
  "bot/tools/refund.ts": `
    import { defineTool } from "@cursor/bdk/tools";
    import { z } from "zod";
    export default defineTool({
      description: "Refund an order.",
      effect: "write",
      needsApproval: true,
      inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
      dryRunResult: ({ orderId }) => ({ refunded: false, dryRun: true, orderId }),
      async execute({ orderId }) { return { refunded: true, orderId }; },
    });`,
};

/** `evals/evals.config.ts` with the given concurrency and any extra fields (`, timeoutMs: 5`). */
export function evalConfig(maxConcurrency: number, extra = ""): string {
  return `import { defineEvalConfig } from "@cursor/bdk/evals";\nexport default defineEvalConfig({ maxConcurrency: ${maxConcurrency}${extra} });`;
}
