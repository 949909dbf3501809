/**
 * What an e2e test file imports: Playwright's `test`, whose `page` is signed
 * in to the shared server, plus a `bdk` fixture (that server's URL, token,
 * `api()` and `newPage()` for other sizes), and small chat helpers.
 */
import { test as base, type Page } from "@playwright/test";
import { bdkClient, signIn, type BdkClient } from "./browser.ts";
import { mainServer } from "./main-server.ts";

export { expect } from "@playwright/test";
export { openTab } from "./browser.ts";

export const test = base.extend<{ bdk: BdkClient }>({
  bdk: async ({ browser }, use) => {
    await use(bdkClient(mainServer(), browser));
  },
  context: async ({ context }, use) => {
    await signIn(context, mainServer().token);
    await use(context);
  },
});

/** The composer textarea. */
export const composer = (page: Page) => page.getByRole("combobox", { name: "Message" });

export async function sendMessage(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press("Enter");
}

export function sessionIdOf(page: Page): string | undefined {
  return new URL(page.url()).searchParams.get("sessionId") ?? undefined;
}
