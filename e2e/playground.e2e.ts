/** The playground against a real `bdk serve` (pr-approver, scripted model). */
import path from "node:path";
import type { Page } from "@playwright/test";
import type { BdkClient } from "./browser.ts";
import { composer, expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";
import { syntheticEvents } from "./synthetic-session.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../docs/screenshots");
const PR_MESSAGE = "Inspect https://github.com/acme/checkout/pull/42";

async function waitForTurns(page: Page, count: number): Promise<void> {
  await expect(page.locator('[data-testid=turn][data-status="completed"]'), `${count} finished turn(s)`).toHaveCount(count);
}

/** Asks about the PR in a new chat and waits for the answer; returns the session id. */
async function chatAboutPr(page: Page): Promise<string> {
  await page.goto("/playground");
  await sendMessage(page, PR_MESSAGE);
  await waitForTurns(page, 1);
  const sessionId = sessionIdOf(page);
  expect(sessionId, `URL carries the session id, got ${page.url()}`).toMatch(/^ses_/);
  return sessionId!;
}

async function lastIndexOf(bdk: BdkClient, sessionId: string): Promise<number> {
  const { session } = await bdk.api<{ session: { lastIndex: number } }>(`/v1/session/${sessionId}`);
  return session.lastIndex;
}

test("chat streams the answer with an inline inspect_pr tool call", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, PR_MESSAGE);
  const tool = page.locator("[data-testid=tool-call][data-tool=inspect_pr]");
  await expect(tool, "inspect_pr finished").toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("assistant-text").last(), "the streamed answer").toContainText("inspect_pr returned");
  await waitForTurns(page, 1);
  await expect(page.getByTestId("turn-footer").first(), "turn footer shows token usage").toHaveText(/in · .*out/);
  await expect(page.getByTestId("scripted-banner")).toBeVisible();

  await tool.getByRole("button").first().click();
  for (const part of ["Arguments", "Output", "README.md"]) await expect(tool, "expanded card shows arguments and output").toContainText(part);
  expect(sessionIdOf(page), `URL carries the session id, got ${page.url()}`).toMatch(/^ses_/);
});

test("reloading mid-session rebuilds the view without duplicates", async ({ page, bdk }) => {
  const sessionId = await chatAboutPr(page);
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/43 again");
  await expect(page.getByTestId("user-message"), "the follow-up was accepted").toHaveCount(2);
  await page.reload();
  await waitForTurns(page, 2);
  await expect(page.getByTestId("user-message"), "user messages after reload").toHaveCount(2);
  await expect(page.getByTestId("turn"), "turns after reload").toHaveCount(2);
  await expect(page.locator("[data-testid=tool-call]"), "tool calls after reload").toHaveCount(2);
  const lastIndex = await lastIndexOf(bdk, sessionId);
  const remembered = await page.evaluate((id) => window.sessionStorage.getItem(`bdk.lastIndex.${id}`), sessionId);
  expect(Number(remembered), "last index remembered in sessionStorage").toBe(lastIndex);

  await openTab(page, "Raw");
  await expect(page.getByTestId("raw-count")).toHaveText(`${lastIndex + 1} events`);
});

test("Raw, Trace, Agent and Logs tabs show the session and the agent", async ({ page, bdk }) => {
  const sessionId = await chatAboutPr(page);
  const lastIndex = await lastIndexOf(bdk, sessionId);
  await page.goto(`/playground?sessionId=${sessionId}&tab=raw`);
  await expect(page.getByTestId("raw-count"), "all events listed").toHaveText(`${lastIndex + 1} events`);
  const deltas = page.getByRole("button", { name: /^message\.appended/ });
  const deltaCount = Number(((await deltas.textContent()) ?? "").replace(/\D+/g, ""));
  expect(deltaCount, "the answer arrived as several deltas").toBeGreaterThan(1);
  await deltas.click();
  await expect(page.getByTestId("raw-count"), "type filter applied").toHaveText(`${deltaCount} of ${lastIndex + 1}`);

  await openTab(page, "Trace");
  const chart = page.getByTestId("trace-chart");
  for (const row of ["Turn 1", "inspect_pr", "Step"]) await expect(chart, "trace shows turn, step and tool rows").toContainText(row);

  await openTab(page, "Agent");
  await expect(page.locator("[data-testid=agent-tool][data-source=bot]"), "the bot's two tools, among the built-ins").toHaveCount(2);
  await expect(page.locator("[data-testid=agent-tool][data-tool=submit_review]"), "submit_review is marked as needing approval").toContainText("needs approval");

  await openTab(page, "Logs");
  await expect(page.getByRole("heading", { name: "Server logs" })).toBeVisible();
  await expect(page.locator("main [role=alert]"), "no error on the Logs tab").toHaveCount(0);
});

test("/help opens from the slash autocomplete and lists commands", async ({ page }) => {
  await page.goto("/playground");
  await composer(page).fill("/");
  await expect(page.getByRole("listbox", { name: "Commands" })).toBeVisible();
  await expect(page.getByRole("option", { name: /\/help/ })).toBeVisible();
  await composer(page).press("Enter");
  await expect(composer(page), "Enter completes the highlighted command").toHaveValue("/help");
  await composer(page).press("Enter");
  await expect(page.getByTestId("chat-note").last(), "the help note lists /help").toContainText("/help");
  await sendMessage(page, "/no-such-command");
  await expect(page.getByTestId("chat-note").last()).toContainText("Unknown command");
  await expect(composer(page), "an unknown command comes back to the box, to fix").toHaveValue("/no-such-command");
});

test("the message box grows with its lines up to 200 px, takes a welcome suggestion, and gets its text back when a send is refused", async ({ page }) => {
  await page.goto("/playground");
  const box = composer(page);
  const height = () => box.evaluate((element) => element.getBoundingClientRect().height);
  await box.fill("one line");
  const oneLine = await height();
  await box.fill("one\ntwo\nthree");
  await expect.poll(height, { message: "three lines make a taller box" }).toBeGreaterThan(oneLine + 20);
  await box.fill(Array.from({ length: 40 }, (_, line) => `line ${line + 1}`).join("\n"));
  await expect.poll(height, { message: "forty lines stop at 200 px" }).toBe(200);
  expect(await box.evaluate((element) => element.scrollHeight > element.clientHeight), "the rest scrolls inside the box").toBe(true);
  await page.screenshot({ path: path.join(SCREENSHOTS, "composer-grown-1280.png") });
  await box.fill("");
  await expect.poll(height, { message: "an empty box is one line again" }).toBe(oneLine);

  await page.getByRole("button", { name: "What can you do?", exact: true }).click();
  await expect(box, "a welcome suggestion fills the box").toHaveValue("What can you do?");
  await expect(box, "ready to edit or send").toBeFocused();

  await page.route("**/v1/session", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ ok: false, error: "unavailable", message: "The server is shutting down." }) })
      : route.fallback(),
  );
  await box.press("Enter");
  await expect(page.getByTestId("chat-note").last(), "the refusal is said").toContainText("The server is shutting down.");
  await expect(box, "the refused message is back in the box").toHaveValue("What can you do?");
  await expect(page.getByTestId("user-message"), "no message claims to be sent").toHaveCount(0);
  expect(sessionIdOf(page), "no session opened").toBeUndefined();
});

test("Runs search finds sessions by title and by id", async ({ page }) => {
  const sessionId = await chatAboutPr(page);
  await page.goto("/playground?tab=runs");
  await expect(page.getByTestId("session-row").first()).toBeVisible();
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill(sessionId.slice(-8));
  await expect(page.getByTestId("session-row"), "search by id").toHaveCount(1);
  await search.fill("acme/checkout/pull/42");
  await expect(page.getByTestId("session-row").first(), "search by title").toContainText("pull/42");
  await search.fill("nothing-matches-this-xyz");
  await expect(page.getByText("No session matches")).toBeVisible();
  await search.fill(sessionId.slice(-8));
  await expect(page.getByTestId("session-row"), "search by id again").toHaveCount(1);
  await page.getByTestId("session-row").getByRole("button", { name: "Trace" }).click();
  await expect(page.getByTestId("trace-chart")).toBeVisible();
  expect(sessionIdOf(page), "Trace opened the searched session").toBe(sessionId);
});

test("a needsApproval call parks inline, shows in the inbox, and runs once approved", async ({ page, bdk }) => {
  await page.goto("/playground");
  await sendMessage(page, 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/42","verdict":"approve","body":"LGTM"}');
  const tool = page.locator("[data-testid=tool-call][data-tool=submit_review]");
  await expect(tool, "parked for approval").toHaveAttribute("data-status", "awaiting_approval");
  await expect(tool.getByRole("button", { name: "Approve" })).toBeVisible();
  const sessionId = sessionIdOf(page);

  await openTab(page, "Approvals");
  const card = page.getByTestId("approval").filter({ hasText: "LGTM" });
  await expect(card, "the inbox shows the tool input").toContainText("submit_review");
  await card.getByRole("button", { name: "Approve" }).click();

  await openTab(page, "Chat");
  await expect(tool, "submit_review ran").toHaveAttribute("data-status", "done");
  const pendingHere = async () => (await bdk.api<{ approvals: Array<{ sessionId: string }> }>("/v1/approvals")).approvals.filter((a) => a.sessionId === sessionId).length;
  await expect.poll(pendingHere, { message: "nothing of this session left in the inbox" }).toBe(0);

  await openTab(page, "Trace");
  await page.getByTestId("trace-chart").getByRole("button").filter({ hasText: /^submit_review/ }).first().click();
  await expect(page.getByTestId("trace-detail"), "the trace says who approved the call, and after how long").toContainText(/approved by \S+ after [\d.]+ m?s/);
});

test("Evals: run all from the browser, read per-assertion results, compare two runs", async ({ page }) => {
  await page.goto("/playground?tab=evals");
  await expect(page.getByRole("checkbox").first()).toBeVisible();
  const runAll = page.getByRole("button", { name: "Run all" });
  await runAll.click();
  const run = page.getByTestId("eval-run");
  await expect(run, "the run finished").toContainText("passed");
  await expect(run, "every case has a verdict").not.toContainText("running");
  await expect(page.getByTestId("eval-case").first(), "cases are listed").toHaveText(/\S/);

  await runAll.click();
  await expect(page.getByRole("button", { name: "Compare" }).first(), "two runs listed").toBeVisible();
  await page.getByRole("button", { name: "Compare" }).first().click();
  await expect(page.getByTestId("eval-compare"), "a deterministic rerun compares as unchanged").toContainText("unchanged");

  await page.getByRole("button", { name: "Close" }).click();
  const trace = page.getByTestId("eval-case").getByRole("button", { name: "Trace" }).first();
  if (await trace.count()) {
    await trace.click();
    await expect(page.getByTestId("trace-chart")).toBeVisible();
  }
});

test("Stop interrupts a running turn", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, 'submit_review {"prUrl":"https://github.com/acme/checkout/pull/7","verdict":"comment","body":"Looks fine"}');
  const tool = page.locator("[data-testid=tool-call][data-tool=submit_review]");
  await expect(tool, "parked for approval").toHaveAttribute("data-status", "awaiting_approval");
  await page.getByTestId("stop-button").click();
  await expect(page.getByTestId("turn").last(), "turn cancelled").toHaveAttribute("data-status", "cancelled");
  await expect(tool, "the parked call was denied by the stop").toHaveAttribute("data-status", "denied");
  await expect(page.getByTestId("turn-footer").last(), "the turn says it was stopped").toContainText("stopped");
  await expect(page.getByTestId("stop-button")).toHaveCount(0);
});

test("a 401 asks for the bearer token in the navbar", async ({ page }) => {
  await page.route("**/v1/info", (route) =>
    route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ ok: false, error: "unauthenticated", message: "A bearer token is required." }) }),
  );
  await page.goto("/playground");
  await expect(page.getByText("A bearer token is required.")).toBeVisible();
  const field = page.getByLabel("Bearer token");
  await expect
    .poll(async () => (await field.getAttribute("placeholder")) === "Token required" || (await field.evaluate((el) => el === document.activeElement)), { message: "token field asks" })
    .toBe(true);
});

test("the tab list is keyboard navigable", async ({ page }) => {
  await page.goto("/playground");
  await page.getByRole("tab", { name: "Chat" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Runs" }), "ArrowRight focuses Runs").toBeFocused();
  await expect(page.getByRole("tab", { name: "Runs" }), "Runs selected").toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Logs" }), "End selects Logs").toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Chat" }), "wraps around to Chat").toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Runs" }), "roving tabindex").toHaveAttribute("tabindex", "-1");
});

test("a deep link to an unknown session says so", async ({ page }) => {
  await page.goto("/playground?sessionId=ses_00000000000000000000000000");
  await expect(page.getByText("Session not found")).toBeVisible();
});

test("a 5,000-event session opens in Raw (windowed) and in Trace", async ({ page }) => {
  const sessionId = "ses_SYNTHETIC5000";
  const body = syntheticEvents(sessionId, 5000).map((event) => JSON.stringify(event)).join("\n") + "\n";
  await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
  await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
  await page.route(`**/v1/session/${sessionId}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }));
  await page.goto(`/playground?sessionId=${sessionId}&tab=raw`);
  await expect(page.getByTestId("raw-count"), "5000 events listed").toHaveText("5000 events");
  expect(await page.getByTestId("raw-row").count(), "the list is windowed").toBeLessThan(200);

  // How fast is measured by bench/playground; here: it renders, all of it.
  await openTab(page, "Trace");
  await expect(page.getByTestId("trace-chart")).toBeVisible();
  await openTab(page, "Chat");
  await expect(page.locator("[data-testid=turn]").last()).toBeVisible();
});
