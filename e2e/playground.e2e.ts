/** The playground against a real `bdk serve` (pr-approver, scripted model). */
import type { Page } from "playwright-core";
import { assert, assertEqual, composer, eventually, openTab, sendMessage, sessionIdOf, type E2eContext, type E2eTest } from "./harness.ts";
import { syntheticEvents } from "./synthetic-session.ts";

const PR_MESSAGE = "Inspect https://github.com/acme/checkout/pull/42";

async function waitForTurns(page: Page, count: number): Promise<void> {
  await eventually(`${count} finished turn(s)`, async () => (await page.locator('[data-testid=turn][data-status="completed"]').count()) >= count, 20_000);
}

async function lastIndexOf(ctx: E2eContext, sessionId: string): Promise<number> {
  const { session } = await ctx.api<{ session: { lastIndex: number } }>(`/v1/session/${sessionId}`);
  return session.lastIndex;
}

export const tests: E2eTest[] = [
  {
    name: "chat streams the answer with an inline inspect_pr tool call",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await sendMessage(page, PR_MESSAGE);
        const tool = page.locator("[data-testid=tool-call][data-tool=inspect_pr]");
        await tool.waitFor();
        await eventually("inspect_pr finished", async () => (await tool.getAttribute("data-status")) === "done");
        await eventually("the streamed answer", async () => (await page.getByTestId("assistant-text").last().textContent())?.includes("inspect_pr returned"));
        await waitForTurns(page, 1);
        const footer = await page.getByTestId("turn-footer").first().textContent();
        assert(/in · .*out/.test(footer ?? ""), `turn footer shows token usage, got ${footer}`);
        await page.getByTestId("scripted-banner").waitFor();

        await tool.getByRole("button").first().click();
        const card = (await tool.textContent()) ?? "";
        assert(card.includes("Arguments") && card.includes("Output") && card.includes("README.md"), "expanded card shows arguments and output");

        const sessionId = sessionIdOf(page);
        assert(sessionId?.startsWith("ses_"), `URL carries the session id, got ${page.url()}`);
        ctx.shared.set("sessionId", sessionId);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "reloading mid-session rebuilds the view without duplicates",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await sendMessage(page, PR_MESSAGE);
        await waitForTurns(page, 1);
        const sessionId = sessionIdOf(page)!;
        await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/43 again");
        await eventually("the follow-up was accepted", async () => (await page.getByTestId("user-message").count()) === 2);
        await page.reload();
        await waitForTurns(page, 2);
        await page.waitForTimeout(500);
        assertEqual(await page.getByTestId("user-message").count(), 2, "user messages after reload");
        assertEqual(await page.getByTestId("turn").count(), 2, "turns after reload");
        assertEqual(await page.locator("[data-testid=tool-call]").count(), 2, "tool calls after reload");
        const lastIndex = await lastIndexOf(ctx, sessionId);
        const remembered = await page.evaluate((id) => window.sessionStorage.getItem(`bdk.lastIndex.${id}`), sessionId);
        assertEqual(Number(remembered), lastIndex, "last index remembered in sessionStorage");

        await openTab(page, "Raw");
        await eventually("raw count", async () => (await page.getByTestId("raw-count").textContent()) === `${lastIndex + 1} events`);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "Raw, Trace, Agent and Logs tabs show the session and the agent",
    async run(ctx) {
      const sessionId = ctx.shared.get("sessionId") as string;
      assert(sessionId, "needs the session from the chat test");
      const lastIndex = await lastIndexOf(ctx, sessionId);
      const { page, context } = await ctx.newPage();
      try {
        await page.goto(`/playground?sessionId=${sessionId}&tab=raw`);
        await eventually("all events listed", async () => (await page.getByTestId("raw-count").textContent()) === `${lastIndex + 1} events`);
        const deltas = page.getByRole("button", { name: /^message\.appended/ });
        const deltaCount = Number(((await deltas.textContent()) ?? "").replace(/\D+/g, ""));
        assert(deltaCount > 1, `the answer arrived as several deltas (got ${deltaCount})`);
        await deltas.click();
        await eventually("type filter applied", async () => (await page.getByTestId("raw-count").textContent()) === `${deltaCount} of ${lastIndex + 1}`);

        await openTab(page, "Trace");
        const chart = page.getByTestId("trace-chart");
        await chart.waitFor();
        const chartText = (await chart.textContent()) ?? "";
        assert(chartText.includes("Turn 1") && chartText.includes("inspect_pr") && chartText.includes("Step"), "trace shows turn, step and tool rows");

        await openTab(page, "Agent");
        await eventually("two tools", async () => (await page.getByTestId("agent-tool").count()) === 2);
        assert(((await page.getByTestId("agent-tool").nth(1).textContent()) ?? "").includes("needs approval"), "submit_review is marked as needing approval");

        await openTab(page, "Logs");
        await page.getByRole("heading", { name: "Server logs" }).waitFor();
        assertEqual(await page.locator("main [role=alert]").count(), 0, "no error on the Logs tab");
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "/help opens from the slash autocomplete and lists commands",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await composer(page).fill("/");
        await page.getByRole("listbox", { name: "Commands" }).waitFor();
        await page.getByRole("option", { name: /\/help/ }).waitFor();
        await composer(page).press("Enter");
        assertEqual(await composer(page).inputValue(), "/help", "Enter completes the highlighted command");
        await composer(page).press("Enter");
        const note = page.getByTestId("chat-note").last();
        await note.waitFor();
        assert(((await note.textContent()) ?? "").includes("/help"), "the help note lists /help");
        await sendMessage(page, "/no-such-command");
        await eventually("unknown command note", async () => ((await page.getByTestId("chat-note").last().textContent()) ?? "").includes("Unknown command"));
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "Runs search finds sessions by title and by id",
    async run(ctx) {
      const sessionId = ctx.shared.get("sessionId") as string;
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground?tab=runs");
        await eventually("sessions listed", async () => (await page.getByTestId("session-row").count()) >= 2);
        const search = page.getByRole("searchbox", { name: "Search sessions" });
        await search.fill(sessionId.slice(-8));
        await eventually("search by id", async () => (await page.getByTestId("session-row").count()) === 1);
        await search.fill("acme/checkout/pull/42");
        await eventually("search by title", async () => {
          const rows = page.getByTestId("session-row");
          const count = await rows.count();
          return count >= 1 && ((await rows.first().textContent()) ?? "").includes("pull/42");
        });
        await search.fill("nothing-matches-this-xyz");
        await page.getByText("No session matches").waitFor();
        await search.fill(sessionId.slice(-8));
        await eventually("search by id again", async () => (await page.getByTestId("session-row").count()) === 1);
        await page.getByTestId("session-row").getByRole("button", { name: "Trace" }).click();
        await page.getByTestId("trace-chart").waitFor();
        assertEqual(sessionIdOf(page), sessionId, "Trace opened the searched session");
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "a needsApproval call parks inline, shows in the inbox, and runs once approved",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await sendMessage(page, 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/42","verdict":"approve","body":"LGTM"}');
        const tool = page.locator("[data-testid=tool-call][data-tool=submit_review]");
        await eventually("parked for approval", async () => (await tool.getAttribute("data-status")) === "awaiting_approval");
        await tool.getByRole("button", { name: "Approve" }).waitFor();

        await openTab(page, "Approvals");
        const card = page.getByTestId("approval").filter({ hasText: "submit_review" });
        await card.waitFor();
        assert(((await card.textContent()) ?? "").includes("LGTM"), "the inbox shows the tool input");
        await card.getByRole("button", { name: "Approve" }).click();

        await openTab(page, "Chat");
        await eventually("submit_review ran", async () => (await tool.getAttribute("data-status")) === "done", 20_000);
        await eventually("inbox empty", async () => (await ctx.api<{ approvals: unknown[] }>("/v1/approvals")).approvals.length === 0);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "Evals: run all from the browser, read per-assertion results, compare two runs",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground?tab=evals");
        await page.getByRole("checkbox").first().waitFor();
        const runAll = page.getByRole("button", { name: "Run all" });
        await runAll.click();
        const run = page.getByTestId("eval-run");
        await eventually("the run finished", async () => ((await run.textContent()) ?? "").includes("passed"), 30_000);
        await eventually("every case has a verdict", async () => {
          const cases = page.getByTestId("eval-case");
          const count = await cases.count();
          return count > 0 && !((await run.textContent()) ?? "").includes("running");
        }, 30_000);
        assert(((await page.getByTestId("eval-case").first().textContent()) ?? "").length > 0, "cases are listed");

        await runAll.click();
        await eventually("two runs listed", async () => (await page.getByRole("button", { name: "Compare" }).count()) >= 1, 30_000);
        await page.getByRole("button", { name: "Compare" }).first().click();
        const compare = page.getByTestId("eval-compare");
        await compare.waitFor();
        assert(((await compare.textContent()) ?? "").includes("unchanged"), "a deterministic rerun compares as unchanged");

        await page.getByRole("button", { name: "Close" }).click();
        const trace = page.getByTestId("eval-case").getByRole("button", { name: "Trace" }).first();
        if (await trace.count()) {
          await trace.click();
          await page.getByTestId("trace-chart").waitFor();
        }
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "Stop interrupts a running turn",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await sendMessage(page, 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/7","verdict":"comment","body":"Looks fine"}');
        const tool = page.locator("[data-testid=tool-call][data-tool=submit_review]");
        await eventually("parked for approval", async () => (await tool.getAttribute("data-status")) === "awaiting_approval");
        await page.getByTestId("stop-button").click();
        await eventually("turn cancelled", async () => (await page.getByTestId("turn").last().getAttribute("data-status")) === "cancelled");
        assertEqual(await tool.getAttribute("data-status"), "denied", "the parked call was denied by the stop");
        assert(((await page.getByTestId("turn-footer").last().textContent()) ?? "").includes("stopped"), "the turn says it was stopped");
        await page.getByTestId("stop-button").waitFor({ state: "detached" });
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "a 401 asks for the bearer token in the navbar",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.route("**/v1/info", (route) =>
          route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ ok: false, error: "unauthenticated", message: "A bearer token is required." }) }),
        );
        await page.goto("/playground");
        await page.getByText("A bearer token is required.").waitFor();
        const field = page.getByLabel("Bearer token");
        await eventually("token field asks", async () => (await field.getAttribute("placeholder")) === "Token required" || (await field.evaluate((el) => el === document.activeElement)));
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "the tab list is keyboard navigable",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground");
        await page.getByRole("tab", { name: "Chat" }).focus();
        await page.keyboard.press("ArrowRight");
        assertEqual(await page.evaluate(() => document.activeElement?.textContent), "Runs", "ArrowRight focuses Runs");
        assertEqual(await page.getByRole("tab", { name: "Runs" }).getAttribute("aria-selected"), "true", "Runs selected");
        await page.keyboard.press("End");
        assertEqual(await page.getByRole("tab", { name: "Logs" }).getAttribute("aria-selected"), "true", "End selects Logs");
        await page.keyboard.press("ArrowRight");
        assertEqual(await page.getByRole("tab", { name: "Chat" }).getAttribute("aria-selected"), "true", "wraps around to Chat");
        assertEqual(await page.getByRole("tab", { name: "Runs" }).getAttribute("tabindex"), "-1", "roving tabindex");
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "a deep link to an unknown session says so",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/playground?sessionId=ses_00000000000000000000000000");
        await page.getByText("Session not found").waitFor();
      } finally {
        await context.close();
      }
    },
  },
  {
    name: "a 5,000-event session opens in Raw (windowed) and in Trace",
    async run(ctx) {
      const sessionId = "ses_SYNTHETIC5000";
      const body = syntheticEvents(sessionId, 5000).map((event) => JSON.stringify(event)).join("\n") + "\n";
      const { page, context } = await ctx.newPage();
      try {
        await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
        await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
        await page.route(`**/v1/session/${sessionId}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }));
        await page.goto(`/playground?sessionId=${sessionId}&tab=raw`);
        await page.getByRole("tab", { name: "Raw" }).waitFor();
        await eventually("5000 events listed", async () => (await page.getByTestId("raw-count").textContent()) === "5000 events", 10_000);
        const rendered = await page.getByTestId("raw-row").count();
        assert(rendered < 200, `the list is windowed (${rendered} rows in the DOM)`);

        // How fast is measured by bench/playground; here: it renders, all of it.
        await openTab(page, "Trace");
        await page.getByTestId("trace-chart").waitFor();
        await openTab(page, "Chat");
        await page.locator('[data-testid=turn]').last().waitFor();
      } finally {
        await context.close();
      }
    },
  },
];
