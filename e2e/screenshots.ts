/** Screenshots of every playground tab at desktop and phone widths, for docs/screenshots/. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { eventually, type E2eContext } from "./harness.ts";

const TABS = ["chat", "runs", "approvals", "evals", "agent", "trace", "raw", "logs"] as const;
const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 390, height: 844 },
];

export async function captureScreenshots(ctx: E2eContext, outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const sessionId = ctx.shared.get("sessionId") as string | undefined;
  // A parked approval, so the Approvals tab has something to show.
  await ctx
    .api("/v1/session", { method: "POST", body: JSON.stringify({ message: 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/42","verdict":"approve","body":"Ship it"}' }) })
    .catch(() => undefined);
  const written: string[] = [];
  for (const size of WIDTHS) {
    const { page, context } = await ctx.newPage(size);
    try {
      for (const tab of TABS) {
        const query = new URLSearchParams();
        if (sessionId) query.set("sessionId", sessionId);
        if (tab !== "chat") query.set("tab", tab);
        await page.goto(`/playground?${query}`);
        await eventually(`${tab} tab`, async () => (await page.getByRole("tab", { name: new RegExp(`^${tab}`, "i") }).getAttribute("aria-selected")) === "true");
        await page.waitForTimeout(600);
        const file = path.join(outDir, `${tab}-${size.width}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      }
    } finally {
      await context.close();
    }
  }
  return written;
}
