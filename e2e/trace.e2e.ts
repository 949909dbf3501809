/**
 * The Trace tab shows content, not only timing (its own `serve` on a small
 * project with a tool and a subagent): a step row shows the request the
 * model got (system prompt, tools offered) and its response, a tool row its
 * input, effect and measured duration, a subagent row opens into the
 * subagent's own steps; after a restart on the same state root, all of it again.
 * The legend paints each kind of row as the chart does, in light and dark.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { bdkClient } from "./browser.ts";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { startServer } from "./server-process.ts";
import { syntheticEvents } from "./synthetic-session.ts";

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
  await expect(detail.getByTestId("trace-request"), "the model it was sent to").toContainText("scripted");
  const response = detail.getByTestId("trace-response");
  await expect(response, "the finish reason and the usage reported").toContainText(/tool-calls · [1-9][\d.]*k? in · [1-9][\d.]*k? out · [\d.]+k? cached/);
  await expect(response, "the model's reasoning").toContainText("calling it");
  await expect(response, "the call it asked for, with its input").toContainText('"sku": "A1"');

  await row(chart, /^price/).first().click();
  await expect(detail.getByTestId("trace-tool-input"), "the validated input (the default filled in)").toContainText('"currency": "EUR"');
  await expect(detail.getByTestId("trace-tool-input")).toContainText('"A1"');
  await expect(detail.getByTestId("trace-tool-output")).toContainText("42");
  await expect(detail, "effect").toContainText("read");
  await expect(detail, "no approval was needed").toContainText("Approvalnot needed");
  await expect(detail.getByTestId("trace-detail-duration"), "durationMs of the call").toHaveText(/^\d+ ms$/);
}

/** The subagent row opens into its own steps, whose request is the subagent's. */
async function expectSubagentSteps(page: Page): Promise<void> {
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
}

test("a trace row shows its request, response, tool input and duration, and again after a restart", async ({ browser }) => {
  const project = traceProject();
  const workDir = path.join(import.meta.dirname, ".work");
  const state = { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-e2e-trace-state-")), token: `e2e-${Date.now().toString(36)}` };
  let server = await startServer(KIT_DIR, project, workDir, [], "trace", state);
  try {
    // Tall enough that the chart shows every row of both turns beside an open detail (the list is windowed).
    let { page, context } = await bdkClient(server, browser).newPage({ height: 1400 });
    await page.goto("/playground");
    await sendMessage(page, 'run price {"sku":"A1"}');
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
    // "pr\u0069ce": the scripted model picks the tool a message names, and this one should name only task.
    await sendMessage(page, 'task {"subagent":"researcher","prompt":"run pr\\u0069ce {\\"sku\\":\\"B2\\"}"}');
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(2);
    const sessionId = sessionIdOf(page)!;

    await openTab(page, "Trace");
    await expectStepAndToolContent(page);
    await expectSubagentSteps(page);
    await context.close();

    await server.stop();
    server = await startServer(KIT_DIR, project, workDir, [], "trace-restarted", state);
    ({ page, context } = await bdkClient(server, browser).newPage({ height: 1400 }));
    await page.goto(`/playground?sessionId=${sessionId}&tab=trace`);
    await expectStepAndToolContent(page);
    await expectSubagentSteps(page);
    await context.close();
  } finally {
    await server.stop();
    rmSync(state.stateRoot, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

/** Serves a made-up session's events (no server state), as the 5,000-event check in playground.e2e.ts does. */
async function serveSynthetic(page: Page, sessionId: string, events: unknown[]): Promise<void> {
  const body = events.map((event) => JSON.stringify(event)).join("\n") + "\n";
  await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
  await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
  await page.route(`**/v1/session/${sessionId}`, (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }),
  );
}

test("the summary strip fits at one row and at hundreds, on a desktop and at 390 px", async ({ bdk }) => {
  for (const width of [1280, 390]) {
    const { page, context } = await bdk.newPage({ width, height: 844 });
    try {
      for (const [sessionId, events, rows] of [
        ["ses_SYNTHETIC0001", syntheticEvents("ses_SYNTHETIC0001", 3), "1 row"],
        ["ses_SYNTHETIC2000", syntheticEvents("ses_SYNTHETIC2000", 2000), /^\d{3,} rows$/],
      ] as const) {
        await serveSynthetic(page, sessionId, events);
        await page.goto(`/playground?sessionId=${sessionId}&tab=trace`);
        const summary = page.getByTestId("trace-summary");
        await expect(page.getByTestId("trace-chart").getByText(rows), "the row count, in words that fit it").toBeVisible();
        await expect(summary.locator("dd"), "six figures").toHaveCount(6);
        for (const figure of await summary.locator("dd").all()) await expect(figure).toHaveText(/\S/);
        const overflow = await summary.evaluate((strip) => ({
          strip: strip.scrollWidth - strip.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        }));
        // A figure too long for its cell is cut with an ellipsis (its whole text in the cell's title), never spilled.
        expect(overflow, `nothing spills out at ${width} px`).toEqual({ strip: 0, page: 0 });
      }
    } finally {
      await context.close();
    }
  }
});

test("the legend shows the colours the bars are painted with, light and dark", async ({ bdk }) => {
  const sessionId = "ses_SYNTHETICLEGEND";
  for (const colorScheme of ["light", "dark"] as const) {
    const { page, context } = await bdk.newPage({ colorScheme });
    try {
      await serveSynthetic(page, sessionId, syntheticEvents(sessionId, 40));
      await page.goto(`/playground?sessionId=${sessionId}&tab=trace`);
      const chart = page.getByTestId("trace-chart");
      const legend = page.getByRole("list", { name: "Legend" });
      for (const [kind, label] of [
        ["turn", /^Turn 1/],
        ["step", /^Step 0/],
      ] as const) {
        const swatch = row(chart, label).first().locator(":scope > span:first-child > span:first-child");
        const key = legend.getByRole("listitem").filter({ hasText: new RegExp(`^${kind}$`) }).locator("span");
        const paint = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);
        expect(await paint(key), `${kind} in the legend, ${colorScheme}`).toBe(await paint(swatch));
      }
    } finally {
      await context.close();
    }
  }
});
