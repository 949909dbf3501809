/**
 * Screenshots of every playground tab at desktop and phone widths, written to
 * docs/screenshots/ (a session with a tool call open, and a parked approval so
 * the Approvals tab has something to show).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, sendMessage, sessionIdOf, test } from "./harness.ts";

const OUT_DIR = path.resolve(import.meta.dirname, "..", "docs", "screenshots");
const TABS = ["chat", "runs", "approvals", "evals", "agent", "trace", "raw", "logs"] as const;
const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 390, height: 844 },
];

test("screenshots of every tab, desktop and phone, in docs/screenshots/", async ({ page, bdk }) => {
  await page.goto("/playground");
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/42");
  await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
  const sessionId = sessionIdOf(page)!;
  await bdk.api("/v1/session", { method: "POST", body: JSON.stringify({ message: 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/42","verdict":"approve","body":"Ship it"}' }) });

  mkdirSync(OUT_DIR, { recursive: true });
  for (const size of WIDTHS) {
    const { page: sized, context } = await bdk.newPage(size);
    try {
      for (const tab of TABS) {
        const query = new URLSearchParams({ sessionId });
        if (tab !== "chat") query.set("tab", tab);
        await sized.goto(`/playground?${query}`);
        await expect(sized.getByRole("tab", { name: new RegExp(`^${tab}`, "i") })).toHaveAttribute("aria-selected", "true");
        // Not an assertion: lets the tab's queries land so the picture shows it loaded (the session stream never goes idle).
        await sized.waitForTimeout(600);
        await sized.screenshot({ path: path.join(OUT_DIR, `${tab}-${size.width}.png`), animations: "disabled" });
      }
    } finally {
      await context.close();
    }
  }
});

test("screenshots of a trace row's content (a model step, a tool call) in docs/screenshots/", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/42");
  await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
  await page.goto(`/playground?${new URLSearchParams({ sessionId: sessionIdOf(page)!, tab: "trace" })}`);
  const chart = page.getByTestId("trace-chart");
  mkdirSync(OUT_DIR, { recursive: true });
  for (const [label, name, shown] of [
    [/^Step 0/, "trace-step", "trace-system"],
    [/^inspect_pr/, "trace-tool", "trace-tool-input"],
  ] as const) {
    await chart.getByRole("button").filter({ hasText: label }).first().click();
    await expect(page.getByTestId(shown)).toBeVisible();
    await page.screenshot({ path: path.join(OUT_DIR, `${name}-1280.png`), animations: "disabled" });
  }
});
