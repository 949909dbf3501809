/** The Logs tab (pr-approver, scripted model): a tool error is logged with its session, found by text search, and links to it. */
import path from "node:path";
import { expect, openTab, sendMessage, sessionIdOf, test } from "./harness.ts";

test("a failed tool call is in the Logs tab, found by search, and its line opens the session", async ({ page }) => {
  await page.goto("/playground");
  await sendMessage(page, 'inspect_pr {"prUrl":"https://github.com/acme/nowhere/pull/999"}');
  await expect(page.locator("[data-testid=tool-call][data-tool=inspect_pr]")).toHaveAttribute("data-status", "error");
  const sessionId = sessionIdOf(page)!;

  await page.getByRole("button", { name: "New chat" }).click();
  await openTab(page, "Logs");
  const search = page.getByRole("searchbox", { name: "Search logs" });
  await search.fill("acme/nowhere");
  const line = page.getByTestId("log-line");
  await expect(line, "one line matches the search").toHaveCount(1);
  await expect(line).toHaveAttribute("data-level", "warn");
  await expect(line).toContainText("Tool inspect_pr returned an error");
  const right = (box: { x: number; width: number } | null) => (box ? box.x + box.width : Infinity);
  const link = await line.getByRole("button", { name: `Open session ${sessionId}` }).boundingBox();
  expect(right(await line.getByText("Tool inspect_pr returned an error").boundingBox()), "a long message is cut before the session link, not drawn under it").toBeLessThanOrEqual(link!.x);
  await page.screenshot({ path: path.resolve(import.meta.dirname, "../docs/screenshots/logs-search-1280.png") });

  await search.fill("no-line-says-this-xyz");
  await expect(page.getByText("No line matches")).toBeVisible();
  await search.fill("acme/nowhere");

  await line.getByRole("button", { name: `Open session ${sessionId}` }).click();
  await expect(page.getByRole("tab", { name: "Chat" })).toHaveAttribute("aria-selected", "true");
  expect(sessionIdOf(page), "the line opened its session").toBe(sessionId);
  await expect(page.getByTestId("user-message")).toContainText("acme/nowhere");
});
