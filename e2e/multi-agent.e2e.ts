/**
 * A folder of agents in multi-agent dev mode (its own server): the index,
 * per-slug API bases, the Try modal, slash commands and "Fire now".
 */
import path from "node:path";
import { createContext, assert, assertEqual, composer, eventually, openTab, sendMessage, sessionIdOf, type E2eTest } from "./harness.ts";
import { startServer } from "./server-process.ts";

export const tests: E2eTest[] = [
  {
    name: "multi-agent dev server: index, Try a channel route, slash command, fire a schedule",
    async run(outer) {
      const server = await startServer(outer.kitDir, path.join(outer.kitDir, "bot-examples"), path.join(import.meta.dirname, ".work"), ["--dev"], "multi-agent");
      const ctx = createContext(outer.kitDir, server.baseUrl, server.token, outer.browser);
      const { page, context } = await ctx.newPage();
      const apiPaths: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.includes("/v1/")) apiPaths.push(url.pathname);
      });
      try {
        await page.goto("/");
        const card = page.getByRole("link", { name: /kitchen-sink/ });
        await card.waitFor();
        assert((await page.getByRole("list", { name: "Agents" }).getByRole("link").count()) >= 2, "the index lists the agents");
        await card.click();
        await page.waitForURL(/\/kitchen-sink\/playground/);
        await eventually("agent name", async () => (await page.getByTestId("agent-name").textContent()) === "kitchen-sink");

        await openTab(page, "Agent");
        await page.getByRole("button", { name: "Try" }).first().click();
        const body = page.getByLabel("JSON body");
        await body.fill(JSON.stringify({ customerEmail: "ada@example.com", question: "Where is order A-1001?" }));
        await page.getByRole("dialog").getByRole("button", { name: "Send" }).click();
        const result = page.getByTestId("try-result");
        await result.waitFor();
        assert(((await result.textContent()) ?? "").includes("202"), `the route answered 202: ${await result.textContent()}`);
        await page.getByRole("button", { name: "Open session" }).click();
        await eventually("opened in chat", async () => sessionIdOf(page)?.startsWith("ses_"));
        await eventually("the routed message", async () => ((await page.getByTestId("user-message").first().textContent()) ?? "").includes("A-1001"));

        await openTab(page, "Agent");
        await page.getByRole("button", { name: "Try" }).first().click();
        assert(((await page.getByLabel("JSON body").inputValue()) ?? "").includes("ada@example.com"), "the modal remembers the last body");
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });

        await page.getByRole("button", { name: "Fire now" }).last().click();
        await page.getByText("Fired.").waitFor();

        await openTab(page, "Chat");
        await page.getByRole("button", { name: "New chat" }).click();
        await composer(page).fill("/que");
        await page.getByRole("option", { name: /\/question/ }).waitFor();
        await sendMessage(page, '/question {"customerEmail":"bob@example.com","question":"Can I return order A-1002?"}');
        await eventually("the command's session opened", async () => ((await page.getByTestId("user-message").first().textContent()) ?? "").includes("A-1002"));

        // kitchen-sink has a memoryHook: the finished conversations are remembered, and can be forgotten.
        await openTab(page, "Agent");
        const memory = page.getByRole("region", { name: "Memory" });
        await eventually("a remembered exchange", async () => ((await memory.textContent()) ?? "").includes("A-1001"), 20_000);
        await memory.getByRole("button", { name: "Forget all" }).click();
        await memory.getByText("Nothing remembered yet").waitFor();

        // The warehouse MCP server started with the first turn: connected, with its tools.
        const connections = page.getByRole("region", { name: "Connections" });
        await connections.getByRole("button", { name: "Refresh" }).click();
        await eventually("the warehouse connection is up", async () => ((await connections.textContent()) ?? "").includes("connected"));
        assert(((await connections.textContent()) ?? "").includes("stock_level"), "the connection lists its tools");

        const outside = apiPaths.filter((p) => !p.startsWith("/kitchen-sink/v1/") && p !== "/v1/agents");
        assertEqual(outside.length, 0, `every API call goes through /kitchen-sink/v1 (${outside.slice(0, 3).join(", ")})`);
      } finally {
        await context.close();
        await server.stop();
      }
    },
  },
];
