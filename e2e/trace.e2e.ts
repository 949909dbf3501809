/**
 * The Trace tab shows content, not only timing (its own `serve` on a small
 * project with a tool and a subagent): a step row shows the request the
 * model got (system prompt, tools offered) and its response, a tool row its
 * input, effect and measured duration, a subagent row opens into the
 * subagent's own steps; after a restart on the same state root, the same.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { bdkClient } from "./browser.ts";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { startServer } from "./server-process.ts";

function traceProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bdk-e2e-trace-"));
  const files: Record<string, string> = {
    "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ name: "trace-content", model: "scripted" });\n',
    "bot/instructions.md": "You quote prices from the price list.\n",
    "bot/tools/price.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Price of a product by its SKU.",
  inputSchema: z.object({ sku: z.string(), currency: z.string().default("EUR") }),
  effect: "read",
  async execute({ sku, currency }) { return { sku, currency, price: 42 }; },
});
`,
    "bot/subagents/researcher/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ description: "Looks prices up." });\n',
    "bot/subagents/researcher/instructions.md": "You research prices for the support desk.\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  symlinkSync(path.join(KIT_DIR, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** A row of the chart by the start of its label (the button also carries its duration). */
const row = (chart: Locator, label: RegExp) => chart.getByRole("button").filter({ hasText: label });

async function expectStepAndToolContent(page: Page): Promise<void> {
  const chart = page.getByTestId("trace-chart");
  const detail = page.getByTestId("trace-detail");
  await row(chart, /^Step 0/).first().click();
  await expect(detail.getByTestId("trace-system"), "the system prompt the model got").toContainText("You quote prices from the price list.");
  await expect(detail.getByTestId("trace-tools"), "the tools it was offered").toContainText("price");
  await expect(detail.getByTestId("trace-tools")).toContainText("Price of a product by its SKU.");
  await expect(detail.getByTestId("trace-response"), "its answer: a call to price").toContainText("tool-calls");

  await row(chart, /^price/).first().click();
  await expect(detail.getByTestId("trace-tool-input"), "the validated input (the default filled in)").toContainText('"currency": "EUR"');
  await expect(detail.getByTestId("trace-tool-input")).toContainText('"A1"');
  await expect(detail.getByTestId("trace-tool-output")).toContainText("42");
  await expect(detail, "effect").toContainText("read");
  await expect(detail.getByTestId("trace-detail-duration"), "durationMs of the call").toHaveText(/^\d+ ms$/);
}

test("a trace row shows its request, response, tool input and duration, and again after a restart", async ({ browser }) => {
  const project = traceProject();
  const workDir = path.join(import.meta.dirname, ".work");
  const state = { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-e2e-trace-state-")), token: `e2e-${Date.now().toString(36)}` };
  let server = await startServer(KIT_DIR, project, workDir, [], "trace", state);
  try {
    let { page, context } = await bdkClient(server, browser).newPage();
    await page.goto("/playground");
    await sendMessage(page, 'run price {"sku":"A1"}');
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
    await sendMessage(page, 'task {"subagent":"researcher","prompt":"run price {\\"sku\\":\\"B2\\"}"}');
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(2);
    const sessionId = sessionIdOf(page)!;

    await openTab(page, "Trace");
    await expectStepAndToolContent(page);

    // The subagent row opens into its own steps, whose request is the subagent's.
    const chart = page.getByTestId("trace-chart");
    const stepsBefore = await row(chart, /^Step 0/).count();
    await row(chart, /^subagent · researcher/).click();
    await expect(row(chart, /^subagent · researcher/)).toHaveAttribute("aria-expanded", "true");
    await expect(row(chart, /^Step 0/), "the subagent's first step under its row").toHaveCount(stepsBefore + 1);
    await expect(row(chart, /^price/), "the subagent's own price call").toHaveCount(2);
    const subagentAt = await chart.getByRole("button").evaluateAll((buttons) => buttons.findIndex((b) => b.textContent?.startsWith("subagent · researcher")));
    await chart.getByRole("button").nth(subagentAt + 1).click();
    await expect(page.getByTestId("trace-system"), "the subagent's instructions").toContainText("You research prices for the support desk.");
    await expect(page.getByTestId("trace-request"), "the prompt it was given").toContainText('run price {"sku":"B2"}');
    await context.close();

    await server.stop();
    server = await startServer(KIT_DIR, project, workDir, [], "trace-restarted", state);
    ({ page, context } = await bdkClient(server, browser).newPage());
    await page.goto(`/playground?sessionId=${sessionId}&tab=trace`);
    await expectStepAndToolContent(page);
    await context.close();
  } finally {
    await server.stop();
    rmSync(state.stateRoot, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});
