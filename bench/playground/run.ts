/**
 * Playground figures in headless Chromium against a real `bdk serve` of
 * pr-approver (scripted model): Send → first streamed token painted, a
 * 5,000-event session opening in Raw and Trace, and the JavaScript the
 * playground loads (gzipped).
 * Run: npx tsx bench/playground/run.ts
 */
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bdkClient, launchChromium, openTab } from "../../e2e/browser.ts";
import { startServer } from "../../e2e/server-process.ts";
import { syntheticEvents } from "../../e2e/synthetic-session.ts";

const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await startServer(KIT_DIR, path.join(KIT_DIR, "bot-examples", "pr-approver"), path.join(KIT_DIR, "bench", ".work"));
const browser = await launchChromium();
const ctx = bdkClient(server, browser);
try {
  // JavaScript of the playground route, as the browser downloads it.
  {
    const { page, context } = await ctx.newPage();
    const scripts = new Map<string, Buffer>();
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script") scripts.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto("/playground");
    await page.getByRole("tab", { name: "Chat" }).waitFor();
    for (const tab of ["Runs", "Approvals", "Evals", "Agent", "Trace", "Raw", "Logs"]) await openTab(page, tab);
    await page.waitForTimeout(500);
    const raw = [...scripts.values()].reduce((sum, body) => sum + body.length, 0);
    const gzipped = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0);
    console.log(`playground JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(0)} KB raw, ${scripts.size} files; target < 400 KB gzipped)`);
    await context.close();
  }

  // Send → first streamed token painted.
  {
    const samples: number[] = [];
    const { page, context } = await ctx.newPage();
    for (let i = 0; i < 7; i++) {
      await page.goto("/playground");
      const composer = page.getByRole("combobox", { name: "Message" });
      await composer.fill("hello there");
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const existing = document.querySelectorAll("[data-testid=assistant-text]").length;
            let sent = 0;
            const observer = new MutationObserver(() => {
              const texts = document.querySelectorAll("[data-testid=assistant-text]");
              if (texts.length > existing && (texts[texts.length - 1].textContent ?? "").length > 0) {
                observer.disconnect();
                requestAnimationFrame(() => resolve(performance.now() - sent));
              }
            });
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
            const box = document.querySelector<HTMLTextAreaElement>("[role=combobox]")!;
            sent = performance.now();
            box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
          }),
      );
      if (i > 1) samples.push(ms);
    }
    console.log(`Send → first streamed token painted: median ${median(samples).toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms over ${samples.length} sends (target < 150 ms)`);
    await context.close();
  }

  // A 5,000-event session in Raw and Trace.
  {
    const sessionId = "ses_SYNTHETIC5000";
    const body = `${syntheticEvents(sessionId, 5000).map((event) => JSON.stringify(event)).join("\n")}\n`;
    const raw: number[] = [];
    const trace: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { page, context } = await ctx.newPage();
      await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
      await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
      await page.route(`**/v1/session/${sessionId}`, (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }),
      );
      await page.goto(`/playground?sessionId=${sessionId}&tab=raw`);
      await page.getByRole("tab", { name: "Raw" }).waitFor();
      const rawStart = Date.now();
      await page.getByTestId("raw-count").filter({ hasText: /^5000 events$/ }).waitFor({ timeout: 10_000 });
      raw.push(Date.now() - rawStart);
      const traceStart = Date.now();
      await openTab(page, "Trace");
      await page.getByTestId("trace-chart").waitFor();
      trace.push(Date.now() - traceStart);
      await context.close();
    }
    console.log(`5,000-event session: Raw lists all in median ${median(raw)} ms, Trace charts it in median ${median(trace)} ms (target < 1000 ms each)`);
  }
} finally {
  await browser.close();
  await server.stop();
}
