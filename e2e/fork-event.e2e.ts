/**
 * Fork from an event inside a turn: from a tool call in Chat (the fork runs
 * that call again, here with a stub), from an event in Raw (the model goes
 * on from there) and from a step row in Trace.
 */
import path from "node:path";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../docs/screenshots");
const STUBBED = '{"title":"Stubbed PR","files":[],"additions":0,"deletions":0}';

test("fork from a tool call, a raw event and a trace step: each fork picks the cut turn up", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/42");
  const completed = page.locator('[data-testid=turn][data-status="completed"]');
  await expect(completed).toHaveCount(1);
  const sourceId = sessionIdOf(page)!;

  // Chat: right after the model asked for inspect_pr; the fork runs it again, stubbed.
  const call = page.getByTestId("tool-call").first();
  await call.getByRole("button").first().click();
  await call.getByTestId("fork-from-call").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog.getByTestId("fork-event-cut"), "the dialog names the event it cuts after").toContainText("actions.requested");
  await expect(dialog.getByTestId("fork-message"), "a cut inside a turn sends no message").toHaveCount(0);
  await dialog.getByRole("checkbox").first().check();
  await dialog.getByRole("textbox", { name: "Stubbed result of inspect_pr" }).fill(STUBBED);
  await page.screenshot({ path: path.join(SCREENSHOTS, "fork-from-event-dialog-1280.png") });
  await page.getByTestId("fork-submit").click();
  await expect.poll(() => sessionIdOf(page), { message: "the fork opened" }).not.toBe(sourceId);
  const forkId = sessionIdOf(page)!;
  await expect(completed, "one turn: the cut turn, picked up").toHaveCount(1);
  await expect(page.getByTestId("user-message")).toHaveCount(1);
  await expect(page.getByTestId("tool-call").first().getByText("stubbed"), "the call ran again on the fork, stubbed").toBeVisible();
  await expect(page.getByTestId("assistant-text").last()).toContainText("Stubbed PR");
  await page.screenshot({ path: path.join(SCREENSHOTS, "fork-from-event-chat-1280.png") });

  // The inherited step keeps its content in the fork's Trace: what the source's model was sent and answered.
  await openTab(page, "Trace");
  await page.getByTestId("trace-chart").getByRole("button").filter({ hasText: /^Step 0/ }).first().click();
  await expect(page.getByTestId("trace-request"), "the inherited step's request").toContainText("pull/42");

  // Raw: right after the stubbed result; the model goes on from the history up to it.
  await openTab(page, "Raw");
  const detail = page.getByRole("complementary", { name: "Event detail" });
  // The turn's final answer: nothing is left to run after it, so no fork is offered there.
  await page.getByTestId("raw-row").filter({ hasText: "message.completed" }).last().click();
  await expect(detail, "the final answer is selected").toContainText("message.completed");
  await expect(detail.getByTestId("fork-from-event"), "no fork after a turn's final answer").toHaveCount(0);
  await page.getByTestId("raw-row").filter({ hasText: "action.result" }).first().click();
  await detail.getByTestId("fork-from-event").click();
  await expect(dialog.getByTestId("fork-event-cut")).toContainText("action.result");
  await page.screenshot({ path: path.join(SCREENSHOTS, "fork-from-event-raw-1280.png") });
  await page.getByTestId("fork-submit").click();
  await expect.poll(() => sessionIdOf(page), { message: "the fork of the fork opened" }).not.toBe(forkId);
  await openTab(page, "Chat");
  await expect(completed).toHaveCount(1);
  // The inherited result is the stub: the new fork's model read it, and no call ran.
  await expect(page.getByTestId("assistant-text").last()).toContainText("Stubbed PR");
  await expect(page.getByTestId("tool-call")).toHaveCount(1);

  // Trace: a step row offers the cut after its end.
  await page.goto(`/playground?sessionId=${sourceId}`);
  await openTab(page, "Trace");
  await page.getByTestId("trace-chart").getByRole("button").filter({ hasText: /^Step 0/ }).first().click();
  await page.getByTestId("trace-detail").getByTestId("fork-from-event").click();
  await expect(dialog.getByTestId("fork-event-cut")).toContainText("step.completed");
  await page.screenshot({ path: path.join(SCREENSHOTS, "fork-from-event-trace-1280.png") });
  await page.getByTestId("fork-submit").click();
  await expect.poll(() => sessionIdOf(page), { message: "the trace fork opened" }).not.toBe(sourceId);
  await openTab(page, "Chat");
  await expect(completed).toHaveCount(1);
  await page.getByTestId("compare-parent").click();
  await expect(page.getByTestId("run-diff"), "the diff compares the cut turn").toContainText("pull/42");
});
