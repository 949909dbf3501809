/** Iterating on a run in the playground: continue a session this browser did not start, fork it with a tool stub, compare. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("continues a curl session, forks it with a stubbed tool result and shows the diff against its parent", async ({ bdk }) => {
  const created = await bdk.api<{ sessionId: string }>("/v1/session", {
    method: "POST",
    body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }),
  });
  await expect
    .poll(async () => (await bdk.api<{ session: { status: string } }>(`/v1/session/${created.sessionId}`)).session.status, { message: "the curl session settled" })
    .toBe("waiting");
  // A fresh browser holds no continuation token for it: the playground fetches the owner's.
  const { page, context } = await bdk.newPage();
  try {
    await page.goto(`/playground?sessionId=${created.sessionId}`);
    const completed = page.locator('[data-testid=turn][data-status="completed"]');
    await expect(completed.first()).toBeVisible();
    await sendMessage(page, "thanks");
    await expect(completed, "the follow-up answered").toHaveCount(2);

    await page.getByRole("button", { name: "Fork from here" }).first().click();
    const dialog = page.getByTestId("fork-dialog");
    await dialog.getByRole("checkbox").first().check();
    await dialog.getByRole("textbox", { name: /Stubbed result of inspect_pr/ }).fill('{"title":"Stubbed PR","files":[],"additions":0,"deletions":0}');
    await page.screenshot({ path: path.join(SCREENSHOTS, "fork-dialog-1280.png") });
    await page.getByTestId("fork-submit").click();
    await expect.poll(() => sessionIdOf(page), { message: "the fork opened" }).not.toBe(created.sessionId);
    await expect(completed.first()).toBeVisible();

    await page.getByTestId("compare-parent").click();
    const diff = page.getByTestId("run-diff");
    await expect(diff, "the diff shows the stubbed result beside the real one").toContainText("Stubbed PR");
    await expect(diff, "the diff says the runs differ").toContainText("Changed parts are marked");
    await expect(diff, "and by how many tokens and how much time").toContainText(/tokens in [+−±][\d.]*k?, out [+−±][\d.]*k?, time [+−±][\d.]*(?: m?s)?\./);
    await expect(diff.getByText(/^scripted · /).first(), "each turn's tokens and duration").toHaveText(/ [1-9][\d.]*k? in \/ [1-9][\d.]*k? out · [\d.]+ m?s · completed$/);
    await page.screenshot({ path: path.join(SCREENSHOTS, "run-diff-1280.png") });
  } finally {
    await context.close();
  }
});

test("edit and resend on a fork with other instructions: the fork's model got them and the edited message, and the diff marks the message", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/42");
  const completed = page.locator('[data-testid=turn][data-status="completed"]');
  await expect(completed).toHaveCount(1);
  const parentId = sessionIdOf(page)!;

  await page.getByRole("button", { name: "Edit and resend" }).first().click();
  const dialog = page.getByTestId("fork-dialog");
  await dialog.getByTestId("fork-message").fill("Inspect https://github.com/acme/checkout/pull/43");
  await dialog.getByTestId("fork-instructions").fill("You answer in one sentence, naming the pull request.");
  await page.getByTestId("fork-submit").click();
  await expect.poll(() => sessionIdOf(page), { message: "the fork opened" }).not.toBe(parentId);
  await expect(completed).toHaveCount(1);
  await expect(page.getByTestId("user-message"), "the edited message").toContainText("pull/43");
  const forkId = sessionIdOf(page)!;

  await openTab(page, "Trace");
  await page.getByTestId("trace-chart").getByRole("button").filter({ hasText: /^Step 0/ }).first().click();
  await expect(page.getByTestId("trace-system"), "the fork's model got the new instructions, verbatim").toHaveText("You answer in one sentence, naming the pull request.");
  await expect(page.getByTestId("trace-request"), "and the edited message").toContainText("pull/43");
  await page.screenshot({ path: path.join(SCREENSHOTS, "fork-instructions-trace-1280.png") });

  await openTab(page, "Runs");
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(forkId.slice(-8));
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row").getByTestId("fork-of"), "listed with its parent").toHaveAttribute("title", new RegExp(`^Forked from ${parentId} `));

  await page.goto(`/playground?sessionId=${forkId}`);
  await page.getByTestId("compare-parent").click();
  const diff = page.getByTestId("run-diff");
  await expect(diff).toContainText("pull/42");
  await expect(diff).toContainText("pull/43");
  await expect(diff.getByTestId("diff-message").nth(1), "the edited message is marked as changed").toHaveAttribute("data-changed", "true");
});

test("stub this result on one tool call: the fork re-runs that turn with only that call stubbed", async ({ page }) => {
  await page.goto("/playground");
  const completed = page.locator('[data-testid=turn][data-status="completed"]');
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/42");
  await expect(completed).toHaveCount(1);
  await sendMessage(page, "Inspect https://github.com/acme/checkout/pull/43");
  await expect(completed).toHaveCount(2);
  const parentId = sessionIdOf(page)!;

  const calls = page.getByTestId("tool-call");
  await calls.nth(1).getByRole("button").first().click();
  await calls.nth(1).getByTestId("stub-call").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog.getByTestId("fork-message"), "cut at the message the call's turn answers").toHaveValue(/pull\/43/);
  await dialog.getByRole("textbox", { name: "Stubbed result of inspect_pr call 2" }).fill('{"title":"Stubbed PR","files":[],"additions":0,"deletions":0}');
  await page.getByTestId("fork-submit").click();
  await expect.poll(() => sessionIdOf(page), { message: "the fork opened" }).not.toBe(parentId);
  await expect(completed).toHaveCount(2);
  await expect(calls.nth(1).getByText("stubbed"), "the re-run call got the stub").toBeVisible();
  await expect(calls.nth(0).getByText("stubbed"), "the inherited call is the real one").toHaveCount(0);
  await expect(page.getByTestId("assistant-text").last()).toContainText("Stubbed PR");
});
