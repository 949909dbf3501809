/**
 * Scale and phone (issue 15 item 7) and calls in doubt (issue 16 item 4), on
 * the shared pr-approver server: at 390 px every tab is reachable and the
 * selected one in view, the scripts and styles arrive compressed, the
 * offline-model banner can be dismissed, a 5,000-event session opens at its
 * last message with only a window of it in the DOM, and a write call in doubt
 * shows a badge in Chat and an entry in the Approvals inbox that a person
 * clears. Screenshots go to docs/screenshots/.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import { bearerPrincipal } from "../server/auth/policies.ts";
import { openStore } from "../server/store/index.ts";
import { expect, openTab, test } from "./harness.ts";
import { mainServer } from "./main-server.ts";
import { syntheticEvents } from "./synthetic-session.ts";

const SHOTS = path.resolve(import.meta.dirname, "..", "docs", "screenshots");
const TABS = ["Chat", "Runs", "Approvals", "Evals", "Agent", "Trace", "Raw", "Logs"];

/** Whether the element lies wholly inside the viewport horizontally (a scrolled-away tab does not). */
const horizontallyInView = (page: Page, name: string) =>
  page.getByRole("tab", { name: new RegExp(`^${name}`) }).evaluate((tab) => {
    const box = tab.getBoundingClientRect();
    const list = tab.closest("[role=tablist]")!.getBoundingClientRect();
    return box.left >= list.left - 1 && box.right <= list.right + 1 && box.right <= window.innerWidth + 1;
  });

test("at 390 px every tab is reachable and the selected one is scrolled into view", async ({ bdk }) => {
  const { page, context } = await bdk.newPage({ width: 390, height: 844 });
  try {
    // A deep link to the last tab: it starts out of view unless the list scrolls to it.
    await page.goto("/playground?tab=logs");
    await expect(page.getByRole("tab", { name: /^Logs/, selected: true })).toBeVisible();
    await expect.poll(() => horizontallyInView(page, "Logs")).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the page itself does not scroll sideways").toBe(true);
    await page.screenshot({ path: path.join(SHOTS, "tabs-logs-390.png") });
    for (const name of TABS) {
      await openTab(page, name);
      await expect.poll(() => horizontallyInView(page, name), name).toBe(true);
    }
    // From the keyboard too: End then Home move the selection and the view with it.
    await page.getByRole("tab", { selected: true }).press("Home");
    await expect(page.getByRole("tab", { name: /^Chat/, selected: true })).toBeFocused();
    await page.keyboard.press("End");
    await expect.poll(() => horizontallyInView(page, "Logs")).toBe(true);
  } finally {
    await context.close();
  }
});

test("at 390 px a session's bar keeps its actions on screen: Save as eval case opens from a phone", async ({ bdk }) => {
  const { sessionId } = await bdk.api<{ sessionId: string }>("/v1/session", { method: "POST", body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }) });
  const { page, context } = await bdk.newPage({ width: 390, height: 844 });
  try {
    await page.goto(`/playground?sessionId=${sessionId}`);
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
    for (const name of ["Save as eval case", "Trace", "New chat"]) await expect(page.getByRole("button", { name, exact: true }), name).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the page itself does not scroll sideways").toBe(true);
    await page.getByRole("button", { name: "Save as eval case", exact: true }).click();
    await expect(page.getByTestId("save-eval-dialog")).toBeVisible();
  } finally {
    await context.close();
  }
});

test("the playground's scripts and styles reach the browser compressed", async ({ page }) => {
  const assets: Array<{ path: string; encoding: string | undefined }> = [];
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (/^\/_next\/static\/.*\.(js|css)$/.test(pathname)) assets.push({ path: pathname, encoding: response.headers()["content-encoding"] });
  });
  await page.goto("/playground");
  await expect(page.getByRole("tab", { name: /^Chat/, selected: true })).toBeVisible();
  expect(assets.length, "the page loaded its scripts").toBeGreaterThan(0);
  expect(assets.filter((asset) => asset.encoding !== "br"), "every one in brotli (Chromium accepts it)").toEqual([]);
});

test("the offline-model banner can be dismissed, and stays dismissed for the browser session", async ({ bdk }) => {
  const { page, context } = await bdk.newPage();
  try {
    await page.goto("/playground");
    const banner = page.getByTestId("scripted-banner");
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Dismiss the offline model notice" }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("tab", { name: /^Chat/ })).toBeVisible();
    await expect(page.getByTestId("scripted-banner")).toHaveCount(0);
  } finally {
    await context.close();
  }
  // Another browser session (a new context) is told again.
  const fresh = await bdk.newPage();
  try {
    await fresh.page.goto("/playground");
    await expect(fresh.page.getByTestId("scripted-banner")).toBeVisible();
  } finally {
    await fresh.context.close();
  }
});

test("a 5,000-event session opens at its last message, with only a window of its turns in the page", async ({ bdk }) => {
  const sessionId = "ses_SYNTHETICCHAT5000";
  const events = syntheticEvents(sessionId, 5000);
  const lastUser = events.findLast((event) => event.type === "message.received")!.data as { message: string };
  const turns = new Set(events.map((event) => event.turnId).filter(Boolean)).size;
  const body = `${events.map((event) => JSON.stringify(event)).join("\n")}\n`;
  const { page, context } = await bdk.newPage();
  try {
    await page.route(`**/v1/session/${sessionId}/events*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body }));
    await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
    await page.route(`**/v1/session/${sessionId}`, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }),
    );
    await page.goto(`/playground?sessionId=${sessionId}`);
    await expect(page.getByText(lastUser.message, { exact: true })).toBeInViewport();
    await expect(page.getByTestId("turn").last()).toBeInViewport();
    const rendered = await page.getByTestId("turn").count();
    expect(rendered, `turns in the DOM out of ${turns}`).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(turns / 4);
    await page.screenshot({ path: path.join(SHOTS, "chat-5000-events-1280.png") });
    // Typing does not move the transcript, and scrolling to the top brings the first message in.
    const composer = page.getByRole("combobox", { name: "Message" });
    await composer.pressSequentially("still at the bottom");
    await expect(page.getByText(lastUser.message, { exact: true })).toBeInViewport();
    await page.getByTestId("chat-transcript").evaluate((element) => element.scrollTo({ top: 0 }));
    await expect(page.getByText("Inspect https://github.com/acme/checkout/pull/0", { exact: true })).toBeInViewport();
  } finally {
    await context.close();
  }
});

test("a session opened by URL asks for its events before the app's JavaScript has loaded, and the app uses that answer", async ({ bdk }) => {
  const sessionId = "ses_SYNTHETICEARLY";
  const events = syntheticEvents(sessionId, 60);
  const lastUser = events.findLast((event) => event.type === "message.received")!.data as { message: string };
  const body = `${events.map((event) => JSON.stringify(event)).join("\n")}\n`;
  const { page, context } = await bdk.newPage();
  try {
    // The app's scripts are held until the events have been asked for: only a request made by the HTML itself can release them.
    let eventsAsked!: () => void;
    const asked = new Promise<void>((resolve) => (eventsAsked = resolve));
    const eventRequests: Array<string | null> = [];
    await page.route("**/_next/static/**/*.js", async (route) => {
      await asked;
      await route.continue();
    });
    await page.route(`**/v1/session/${sessionId}/events*`, async (route) => {
      eventRequests.push(await route.request().headerValue("authorization"));
      eventsAsked();
      await route.fulfill({ status: 200, contentType: "application/x-ndjson", body });
    });
    await page.route(`**/v1/session/${sessionId}/stream*`, (route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: "\n" }));
    await page.route(`**/v1/session/${sessionId}`, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic" } }) }),
    );
    await page.goto(`/playground?sessionId=${sessionId}`);
    await expect(page.getByText(lastUser.message, { exact: true })).toBeInViewport();
    expect(eventRequests, "one request for the events, carrying the signed-in token").toEqual([`Bearer ${bdk.token}`]);
  } finally {
    await context.close();
  }
});

test("a write call in doubt has a badge in Chat and an entry in the Approvals inbox, until someone clears it", async ({ bdk }) => {
  const server = mainServer();
  // What recovery leaves after a crash cut a payment off: the ledger row in doubt and its event, in the server's own store.
  const store = openStore(server.stateRoot);
  const toolCallId = "call_in_doubt_e2e";
  const sessionId = store.sessions.create({ mode: "chat", channel: "http", principal: bearerPrincipal(server.token), title: "Payment cut off by a crash" }).id;
  try {
    const turnId = `turn_${toolCallId}`;
    store.turns.create({ id: turnId, sessionId, status: "interrupted", message: "charge it" });
    const input = { prUrl: "https://github.com/acme/checkout/pull/7", verdict: "approve", body: "Ship it" };
    store.events.append(sessionId, [
      { type: "session.started", data: { mode: "chat", channel: "http", title: "Payment cut off by a crash", principal: bearerPrincipal(server.token) } },
      { type: "message.received", turnId, data: { message: "approve PR 7" } },
      { type: "turn.started", turnId, data: { model: "scripted" } },
      { type: "actions.requested", turnId, data: { actions: [{ toolCallId, name: "submit_review", input }] } },
      {
        type: "action.in_doubt",
        turnId,
        data: { toolCallId, name: "submit_review", input, effect: "write", startedAt: new Date().toISOString(), message: "The server stopped while this call was running: it may or may not have taken effect." },
      },
      { type: "turn.failed", turnId, data: { status: "interrupted", code: "interrupted", message: "The server restarted during this turn." } },
      { type: "session.waiting", turnId, data: {} },
    ]);
    store.toolCalls.start({ sessionId, turnId, toolCallId, name: "submit_review", effect: "write", input });
    store.toolCalls.markInDoubt({ sessionId, turnId, toolCallId });
  } finally {
    store.close();
  }

  const { page, context } = await bdk.newPage();
  try {
    await page.goto(`/playground?sessionId=${sessionId}`);
    const card = page.locator("[data-testid=tool-call][data-tool=submit_review]");
    await expect(card).toHaveAttribute("data-status", "in_doubt");
    await expect(card.getByText("in doubt", { exact: true })).toBeVisible();
    await expect(card.getByTestId("in-doubt")).toContainText("may or may not have taken effect");
    await page.screenshot({ path: path.join(SHOTS, "in-doubt-chat-1280.png") });

    await openTab(page, "Approvals");
    const entry = page.getByTestId("in-doubt-call").filter({ hasText: "submit_review" });
    await expect(entry).toHaveCount(1);
    await page.screenshot({ path: path.join(SHOTS, "in-doubt-approvals-1280.png") });
    await entry.getByRole("textbox", { name: "Note" }).fill("no review on PR 7");
    await entry.getByRole("button", { name: "It did not" }).click();
    await expect(page.getByTestId("in-doubt-call").filter({ hasText: "submit_review" })).toHaveCount(0);

    // The chat shows who cleared it (the session's stream carries action.in_doubt_resolved).
    await openTab(page, "Chat");
    await expect(card.getByText("checked: not done")).toBeVisible();
    await card.getByRole("button", { expanded: false }).click();
    await expect(card.getByTestId("in-doubt-resolved")).toContainText("no review on PR 7");
  } finally {
    await context.close();
  }
});
