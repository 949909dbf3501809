/**
 * Playground figures in headless Chromium against a real `bdk serve` of
 * pr-approver (scripted model): the JavaScript the playground loads as
 * transferred (compressed by the server) and decoded, Send → first streamed
 * token painted, a 5,000-event session opened in Chat, Trace and Raw
 * (navigation → usable), and the frame time of each keystroke in Chat beside it.
 * Run: npx tsx bench/playground/run.ts
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bdkClient, launchChromium, openTab } from "../../e2e/browser.ts";
import { startServer } from "../../e2e/server-process.ts";
import { syntheticEvents } from "../../e2e/synthetic-session.ts";

const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** In the page: the milestones between navigation and usable, from Navigation, Resource and Paint Timing. */
function milestones(): Record<string, number> {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
  const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  const scripts = resources.filter((entry) => entry.initiatorType === "script");
  const events = resources.find((entry) => entry.name.includes("/events"));
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    html: nav.responseEnd,
    "scripts loaded": Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
    domContentLoaded: nav.domContentLoadedEventEnd,
    "first paint": paint?.startTime ?? 0,
    "events requested": events?.startTime ?? 0,
    "events arrived": events?.responseEnd ?? 0,
  };
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await startServer(KIT_DIR, path.join(KIT_DIR, "bot-examples", "pr-approver"), path.join(KIT_DIR, "bench", ".work"));
const browser = await launchChromium();
const ctx = bdkClient(server, browser);
try {
  // JavaScript of the playground route, as it travels (the encoded body) and as the browser runs it (decoded).
  {
    const { page, context } = await ctx.newPage();
    const scripts = new Map<string, { wire: number; raw: number; encoding: string }>();
    page.on("requestfinished", async (request) => {
      if (request.resourceType() !== "script") return;
      const response = await request.response();
      const sizes = await request.sizes();
      const raw = (await response?.body().catch(() => undefined))?.length ?? 0;
      scripts.set(request.url(), { wire: sizes.responseBodySize, raw, encoding: (await response?.headerValue("content-encoding")) ?? "identity" });
    });
    const sum = (key: "wire" | "raw") => [...scripts.values()].reduce((total, script) => total + script[key], 0);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    await page.goto("/playground");
    await page.getByRole("tab", { name: "Chat" }).waitFor();
    await page.waitForLoadState("networkidle").catch(() => {});
    const encodings = [...new Set([...scripts.values()].map((script) => script.encoding))].join(", ");
    console.log(`first-load JavaScript: ${kb(sum("wire"))} KB transferred (${kb(sum("raw"))} KB decoded, ${scripts.size} files, ${encodings}; target < 400 KB)`);
    for (const tab of ["Runs", "Approvals", "Evals", "Agent", "Trace", "Raw", "Logs"]) await openTab(page, tab);
    await page.waitForTimeout(500);
    console.log(`JavaScript after every tab: ${kb(sum("wire"))} KB transferred (${kb(sum("raw"))} KB decoded, ${scripts.size} files)`);
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

  // A 5,000-event session opened straight in Chat, Trace and Raw: time from navigation to usable, then typing in Chat.
  {
    const sessionId = "ses_SYNTHETIC5000";
    const events = syntheticEvents(sessionId, 5000);
    const lastMessage = (events.findLast((event) => event.type === "message.received")!.data as { message: string }).message;
    const body = `${events.map((event) => JSON.stringify(event)).join("\n")}\n`;
    // In the page: when the tab is usable, as ms since navigation start.
    const usable: Record<string, string> = {
      chat: `[...document.querySelectorAll("[data-testid=chat-transcript] p, [data-testid=chat-transcript] div")].some((el) => el.textContent === ${JSON.stringify(lastMessage)} && el.getBoundingClientRect().bottom <= innerHeight)`,
      trace: `!!document.querySelector("[data-testid=trace-chart]")`,
      raw: `document.querySelector("[data-testid=raw-count]")?.textContent === "5000 events"`,
    };
    const opened: Record<string, number[]> = { chat: [], trace: [], raw: [] };
    // Usable minus the moment the events response ended: the cost of folding and drawing 5,000 events.
    const afterData: Record<string, number[]> = { chat: [], trace: [], raw: [] };
    const keys: Array<{ script: number; render: number }> = [];
    // Where the time before usable goes, per tab (ms since navigation start, from the page's own performance entries).
    const phases: Record<string, Array<Record<string, number>>> = { chat: [], trace: [], raw: [] };
    for (let round = 0; round < 3; round++) {
      for (const tab of Object.keys(usable)) {
        const { page, context } = await ctx.newPage();
        await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
        await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
        await page.route(`**/v1/session/${sessionId}`, (route) =>
          route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }),
        );
        await page.goto(`/playground?sessionId=${sessionId}${tab === "chat" ? "" : `&tab=${tab}`}`);
        const at = Number(await (await page.waitForFunction(`(${usable[tab]}) && performance.now()`, undefined, { polling: "raf", timeout: 20_000 })).jsonValue());
        const dataEnd = await page.evaluate(() => (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((entry) => entry.name.includes("/events"))?.responseEnd ?? 0);
        phases[tab].push(await page.evaluate(milestones));
        opened[tab].push(at);
        afterData[tab].push(at - dataEnd);
        if (tab === "chat") {
          // Per keystroke, the main thread's work for its frame: the input's handlers and React's commit (keydown
          // capture → input event done), then style, layout and paint (rAF → the task after it). Waiting for
          // vsync is not work, so it is left out.
          await page.evaluate(() => {
            const state = window as unknown as { bdkKeys: Array<{ script: number; render: number }>; bdkStart: number };
            state.bdkKeys = [];
            document.addEventListener("keydown", () => (state.bdkStart = performance.now()), true);
            window.addEventListener("input", () => {
              const script = performance.now() - state.bdkStart;
              requestAnimationFrame(() => {
                const frame = performance.now();
                setTimeout(() => state.bdkKeys.push({ script, render: performance.now() - frame }), 0);
              });
            });
          });
          await page.getByRole("combobox", { name: "Message" }).pressSequentially("typing beside five thousand events", { delay: 40 });
          await page.waitForTimeout(300);
          keys.push(...(await page.evaluate(() => (window as unknown as { bdkKeys: Array<{ script: number; render: number }> }).bdkKeys)));
        }
        await context.close();
      }
    }
    // The same page without a session, for scale: what loading the playground alone costs on this machine.
    const empty: number[] = [];
    for (let round = 0; round < 3; round++) {
      const { page, context } = await ctx.newPage();
      await page.goto("/playground");
      empty.push(Number(await (await page.waitForFunction(`!!document.querySelector("[role=combobox]") && performance.now()`, undefined, { polling: "raf" })).jsonValue()));
      await context.close();
    }
    const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;
    for (const tab of Object.keys(phases)) {
      const names = Object.keys(phases[tab][0]);
      console.log(`  ${tab} timeline (median ms since navigation): ${names.map((name) => `${name} ${median(phases[tab].map((p) => p[name])).toFixed(0)}`).join(", ")}, usable ${median(opened[tab]).toFixed(0)}`);
    }
    console.log(`5,000-event session, navigation → usable (median of 3): Chat ${ms(opened.chat)}, Trace ${ms(opened.trace)}, Raw ${ms(opened.raw)} (target < 1000 ms each; the playground without a session: ${ms(empty)})`);
    console.log(`  of which after the events arrived (folding and drawing them): Chat ${ms(afterData.chat)}, Trace ${ms(afterData.trace)}, Raw ${ms(afterData.raw)}`);
    const totals = keys.map((key) => key.script + key.render).sort((x, y) => x - y);
    const pct = (q: number) => totals[Math.min(totals.length - 1, Math.floor(totals.length * q))].toFixed(1);
    console.log(
      `typing in Chat beside it, main-thread work per keystroke frame: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms over ${keys.length} keys (script median ${median(keys.map((key) => key.script)).toFixed(1)} ms, render median ${median(keys.map((key) => key.render)).toFixed(1)} ms; target < 16 ms)`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
