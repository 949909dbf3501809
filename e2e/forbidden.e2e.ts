/**
 * Another principal's session in the playground: a link to it opens as a
 * clear refusal (403, who may open it), and neither a follow-up nor a fork
 * gets through; nothing crashes.
 */
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import { bdkClient, signIn } from "./browser.ts";
import { composer, expect, openTab, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../docs/screenshots");
const OTHER = `e2e-other-${Math.random().toString(36).slice(2)}`;

let server: ServerProcess;

test.beforeAll(async () => {
  server = await startServer(KIT_DIR, path.join(KIT_DIR, "bot-examples/pr-approver"), path.join(import.meta.dirname, ".work"), ["--bearer-token", OTHER], "forbidden");
});

test.afterAll(async () => {
  await server?.stop();
});

test("a session of another principal opens as a refusal: no transcript, follow-up and fork refused with 403", async ({ browser }) => {
  const owner = bdkClient(server, browser);
  const { sessionId } = await owner.api<{ sessionId: string }>("/v1/session", { method: "POST", body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }) });
  await expect
    .poll(async () => (await owner.api<{ session: { status: string } }>(`/v1/session/${sessionId}`)).session.status, { message: "the owner's turn settled" })
    .toBe("waiting");

  const context: BrowserContext = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 860 } });
  await signIn(context, OTHER);
  const page = await context.newPage();
  const crashes: string[] = [];
  page.on("pageerror", (error) => crashes.push(error.message));
  try {
    await page.goto(`/playground?sessionId=${sessionId}`);
    const refusal = page.getByRole("alert").filter({ hasText: "Not your session" });
    await expect(refusal, "the chat says whose session it is").toContainText(`Session ${sessionId} belongs to another principal.`);
    await expect(page.getByTestId("feed-status")).toContainText("error");
    await expect(page.getByTestId("session-activity"), "no activity is claimed for a session it cannot read").toHaveCount(0);
    await expect(page.getByTestId("user-message"), "nothing of the transcript shows").toHaveCount(0);
    // Neither continuing nor forking is offered: the composer explains why.
    await expect(composer(page)).toBeDisabled();
    await expect(page.getByText("only its owner can continue or fork it")).toBeVisible();
    for (const name of ["Fork from here", "Edit and resend", "Save as eval case", "Compare with parent"]) {
      await expect(page.getByRole("button", { name }), name).toHaveCount(0);
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, "forbidden-session-1280.png") });
    for (const tab of ["Trace", "Raw"]) {
      await openTab(page, tab);
      await expect(page.getByRole("alert").filter({ hasText: "belongs to another principal" }), `${tab} refuses too`).toBeVisible();
    }
    // The server refuses this browser's fork and follow-up of that session (what the hidden buttons would send).
    const asOther = { Authorization: `Bearer ${OTHER}` };
    expect((await page.request.post(`/v1/session/${sessionId}/fork`, { headers: asOther, data: { beforeIndex: 1 } })).status()).toBe(403);
    expect((await page.request.get(`/v1/session/${sessionId}/token`, { headers: asOther })).status()).toBe(403);
    expect(crashes, "no uncaught error in the page").toEqual([]);
  } finally {
    await context.close();
  }
});
