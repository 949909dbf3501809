/**
 * Status that tells the truth (pr-approver, scripted model): a session parked
 * on an approval says "needs approval" in Chat and Runs, an answered chat is
 * "idle" in a neutral colour, a turn ended early says why (the user's Stop, a
 * newer message, a restart), and the chat shows the agent working from the
 * moment the message is stored.
 */
import path from "node:path";
import type { Locator, Page, Route } from "@playwright/test";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";

const SHOTS = path.resolve(import.meta.dirname, "..", "docs", "screenshots");
const SUBMIT = (body: string) => `submit_review {"prUrl":"https://github.com/acme/checkout/pull/42","verdict":"approve","body":"${body}"}`;

/** The colour a token resolves to on this page (what a badge of that tone is painted with). */
async function tokenColour(page: Page, token: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement("span");
    probe.style.color = `var(--bdk-${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, token);
}

const colourOf = (badge: Locator) => badge.evaluate((el) => getComputedStyle(el).color);

/** Serves a stored event record for a made-up session, so a state that needs a restart or a slow start can be shown. */
async function serveSession(page: Page, sessionId: string, drafts: Array<Pick<AnyBdkEvent, "type" | "turnId"> & { data: unknown }>): Promise<void> {
  const at = Date.parse("2026-01-01T00:00:00Z");
  const body = drafts.map((draft, index) => JSON.stringify({ ...draft, index, sessionId, at: new Date(at + index * 10).toISOString() })).join("\n") + "\n";
  const ndjson = (content: string) => (route: Route) => route.fulfill({ status: 200, contentType: "application/x-ndjson", body: content });
  await page.route(`**/v1/session/${sessionId}/events*`, ndjson(body));
  await page.route(`**/v1/session/${sessionId}/stream*`, ndjson("\n"));
  await page.route(`**/v1/session/${sessionId}`, (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, session: { id: sessionId, title: "Synthetic", status: "running" } }) }),
  );
}

/** This session's row in the Runs list (searching by id leaves it alone). */
async function runsRowOf(page: Page, sessionId: string): Promise<Locator> {
  await openTab(page, "Runs");
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(sessionId.slice(-8));
  const row = page.getByTestId("session-row");
  await expect(row).toHaveCount(1);
  return row;
}

test("a parked approval says 'needs approval' in Chat and Runs; once answered the chat is idle, in a neutral colour", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, SUBMIT("status check"));
  const tool = page.locator("[data-testid=tool-call][data-tool=submit_review]");
  await expect(tool).toHaveAttribute("data-status", "awaiting_approval");
  const activity = page.getByTestId("session-activity");
  await expect(activity).toHaveAttribute("data-activity", "needs approval");
  await expect(activity).toHaveText("needs approval");
  const sessionId = sessionIdOf(page)!;

  let row = await runsRowOf(page, sessionId);
  await expect(row.getByText("needs approval"), "the Runs list says why it waits").toBeVisible();
  await expect(row.getByText("running", { exact: true })).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, "status-needs-approval-runs-1280.png") });

  await openTab(page, "Chat");
  await tool.getByRole("button", { name: "Approve" }).click();
  await expect(tool).toHaveAttribute("data-status", "done");
  await expect(activity).toHaveAttribute("data-activity", "idle");
  expect(await colourOf(activity.getByText("idle")), "idle is neutral, not the warning colour").toBe(await tokenColour(page, "tone-neutral"));
  expect(await tokenColour(page, "tone-neutral")).not.toBe(await tokenColour(page, "tone-warning"));

  row = await runsRowOf(page, sessionId);
  await expect(row.getByText("idle", { exact: true }), "an answered chat is idle in Runs").toBeVisible();
  expect(await colourOf(row.getByText("idle", { exact: true }))).toBe(await tokenColour(page, "tone-neutral"));
});

test("Stop says 'stopped'; a newer message says 'preempted'", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, SUBMIT("first"));
  await expect(page.locator("[data-testid=tool-call][data-tool=submit_review]")).toHaveAttribute("data-status", "awaiting_approval");
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/43");
  const turns = page.getByTestId("turn");
  await expect(turns).toHaveCount(2);
  await expect(turns.nth(1)).toHaveAttribute("data-status", "completed");
  await expect(turns.nth(0).getByTestId("turn-footer"), "the first turn gave way to the newer message").toContainText("preempted");
  await expect(turns.nth(0).getByTestId("turn-footer")).not.toContainText("stopped");

  await sendMessage(page, SUBMIT("second"));
  await expect(turns.nth(2).locator("[data-testid=tool-call]")).toHaveAttribute("data-status", "awaiting_approval");
  await page.getByTestId("stop-button").click();
  await expect(turns.nth(2)).toHaveAttribute("data-status", "cancelled");
  await expect(turns.nth(2).getByTestId("turn-footer"), "the user's Stop").toContainText("stopped");
  await expect(turns.nth(2).getByTestId("turn-footer")).not.toContainText("preempted");
  await page.screenshot({ path: path.join(SHOTS, "status-preempted-stopped-1280.png") });
});

test("a turn cut by a restart says 'interrupted'", async ({ page }) => {
  const sessionId = "ses_SYNTHETICRESTART";
  await serveSession(page, sessionId, [
    { type: "session.started", data: { mode: "chat", channel: "http", principal: { type: "user", id: "local" } } },
    { type: "message.received", turnId: "turn_1", data: { message: "hello" } },
    { type: "turn.started", turnId: "turn_1", data: { model: "scripted" } },
    { type: "turn.failed", turnId: "turn_1", data: { status: "interrupted", code: "interrupted", message: "The server stopped while this turn was running." } },
  ]);
  await page.goto(`/playground?sessionId=${sessionId}`);
  const footer = page.getByTestId("turn-footer");
  await expect(footer).toContainText("interrupted");
  await expect(footer).not.toContainText("stopped");
  await expect(page.getByTestId("session-activity")).toHaveAttribute("data-activity", "idle");
});

test("the chat shows the agent working between message.received and the turn's first event", async ({ page }) => {
  const sessionId = "ses_SYNTHETICSTARTING";
  await serveSession(page, sessionId, [
    { type: "session.started", data: { mode: "chat", channel: "http", principal: { type: "user", id: "local" } } },
    { type: "message.received", turnId: "turn_1", data: { message: "hello" } },
  ]);
  await page.goto(`/playground?sessionId=${sessionId}`);
  await expect(page.getByTestId("user-message")).toContainText("hello");
  await expect(page.getByRole("status", { name: "Agent is working" })).toBeVisible();
  await expect(page.getByTestId("session-activity")).toHaveAttribute("data-activity", "running");
  await expect(page.getByTestId("stop-button"), "a starting turn can be stopped").toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "status-working-1280.png") });
});
