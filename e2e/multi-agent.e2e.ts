/**
 * A folder of agents in multi-agent dev mode (its own server): the index,
 * per-slug API bases, the Try modal (and continuing the session it started),
 * slash commands and "Fire now".
 */
import path from "node:path";
import { bdkClient } from "./browser.ts";
import { composer, expect, openTab, sendMessage, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { startServer } from "./server-process.ts";

test("multi-agent dev server: index, Try a channel route and continue its session, slash command, fire a schedule", async ({ browser }) => {
  const server = await startServer(KIT_DIR, path.join(KIT_DIR, "bot-examples"), path.join(import.meta.dirname, ".work"), ["--dev"], "multi-agent");
  const { page, context } = await bdkClient(server, browser).newPage();
  const apiPaths: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.includes("/v1/")) apiPaths.push(url.pathname);
  });
  try {
    await page.goto("/");
    const card = page.getByRole("link", { name: /kitchen-sink/ });
    await expect(card).toBeVisible();
    expect(await page.getByRole("list", { name: "Agents" }).getByRole("link").count(), "the index lists the agents").toBeGreaterThanOrEqual(2);
    await card.click();
    await page.waitForURL(/\/kitchen-sink\/playground/);
    await expect(page.getByTestId("agent-name")).toHaveText("kitchen-sink");

    await openTab(page, "Agent");
    await page.getByRole("button", { name: "Try" }).first().click();
    await page.getByLabel("JSON body").fill(JSON.stringify({ customerEmail: "ada@example.com", question: "Where is order A-1001?" }));
    await page.getByRole("dialog").getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("try-result"), "the route answered 202").toContainText("202");
    await page.getByRole("button", { name: "Open session" }).click();
    await expect(page, "opened in chat").toHaveURL(/sessionId=ses_/);
    await expect(page.getByTestId("user-message").first(), "the routed message").toContainText("A-1001");
    // The channel's session continues from here, though this browser never held its token.
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);
    await sendMessage(page, "And order A-1002?");
    await expect(page.getByTestId("user-message"), "the follow-up joined the channel's session").toHaveCount(2);
    await expect(page.locator('[data-testid=turn][data-status="completed"]'), "and was answered").toHaveCount(2);

    await openTab(page, "Agent");
    await page.getByRole("button", { name: "Try" }).first().click();
    await expect(page.getByLabel("JSON body"), "the modal remembers the last body").toHaveValue(/ada@example\.com/);
    // The body built from the route's schema is a request the route takes as it stands.
    await page.getByRole("button", { name: "Reset body" }).click();
    await expect(page.getByLabel("JSON body")).not.toHaveValue(/ada@example\.com/);
    await page.getByRole("dialog").getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("try-result"), "the schema's example was accepted").toContainText("202");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // Under dev nothing fires on its own: no schedule claims a next firing.
    const firing = page.getByTestId("schedule-firing");
    await expect(firing.first()).toHaveText("fires only by hand in dev");
    for (const text of await firing.allTextContents()) expect(text, "a dev schedule claims no next firing").not.toContain("next");
    await firing.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.resolve(import.meta.dirname, "../docs/screenshots/agent-dev-schedules-1280.png") });

    await page.getByRole("button", { name: "Fire now" }).last().click();
    await expect(page.getByText("Fired.")).toBeVisible();

    await openTab(page, "Chat");
    await page.getByRole("button", { name: "New chat" }).click();
    await composer(page).fill("/que");
    await expect(page.getByRole("option", { name: /\/question/ })).toBeVisible();
    await sendMessage(page, '/question {"customerEmail":"bob@example.com","question":"Can I return order A-1002?"}');
    await expect(page.getByTestId("user-message").first(), "the command's session opened").toContainText("A-1002");

    // kitchen-sink has a memoryHook: the finished conversations are remembered, and can be forgotten.
    await openTab(page, "Agent");
    const memory = page.getByRole("region", { name: "Memory" });
    await expect(memory, "a remembered exchange").toContainText("A-1001");
    await memory.getByRole("button", { name: "Forget all" }).click();
    await expect(memory.getByText("Nothing remembered yet")).toBeVisible();

    // The warehouse MCP server started with the first turn: connected, with its tools.
    const connections = page.getByRole("region", { name: "Connections" });
    await connections.getByRole("button", { name: "Refresh" }).click();
    await expect(connections, "the warehouse connection is up").toContainText("connected");
    await expect(connections, "the connection lists its tools").toContainText("stock_level");

    const outside = apiPaths.filter((p) => !p.startsWith("/kitchen-sink/v1/") && p !== "/v1/agents");
    expect(outside, "every API call goes through /kitchen-sink/v1").toEqual([]);
  } finally {
    await context.close();
    await server.stop();
  }
});
