/**
 * Connect in the playground (its own `serve --dev` on a project with an
 * `oauth: true` connection to an in-memory OAuth MCP server): the parked call
 * shows "Connect linear", the click opens the authorization page in a new
 * tab, which comes back to the server's callback, and the call finishes.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startOAuthMcpServer } from "../test/support/oauth-mcp-server.ts";
import { bdkClient } from "./browser.ts";
import { expect, openTab, sendMessage, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { startServer } from "./server-process.ts";

function oauthProject(mcpUrl: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bdk-e2e-oauth-"));
  const files: Record<string, string> = {
    "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ name: "oauth-dev", model: "scripted", tools: [] });\n',
    "bot/instructions.md": "You relay questions to MCP servers.\n",
    "bot/mcp-connections/linear.ts": `import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ url: "${mcpUrl}", oauth: true });\n`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  symlinkSync(path.join(KIT_DIR, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

test("Connect an OAuth MCP connection from a parked tool call", async ({ browser }) => {
  const mcp = await startOAuthMcpServer();
  const project = oauthProject(mcp.url);
  const server = await startServer(KIT_DIR, project, path.join(import.meta.dirname, ".work"), ["--dev"], "oauth-dev");
  const { page, context } = await bdkClient(server, browser).newPage();
  try {
    await page.goto("/playground");
    await openTab(page, "Chat");
    await sendMessage(page, "linear__connect please");
    const tool = page.locator("[data-testid=tool-call][data-tool=linear__connect]");
    await expect(tool, "the call waits for sign-in").toHaveAttribute("data-status", "awaiting_authorization");

    const [tab] = await Promise.all([context.waitForEvent("page"), tool.getByRole("button", { name: "Connect linear" }).click()]);
    await expect(tab.getByText("Connected linear. You can close this tab.")).toBeVisible();
    await tab.close();

    await expect(tool, "the call finished").toHaveAttribute("data-status", "done");
    await tool.getByRole("button", { expanded: false }).click();
    await expect(tool, "the result lists the connection's tools").toContainText("linear__say");
  } finally {
    await context.close();
    await server.stop();
    await mcp.close();
    rmSync(project, { recursive: true, force: true });
  }
});
