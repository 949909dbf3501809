/** Iterating on a run in the playground: continue a session this browser did not start, fork it with a tool stub, compare. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assert, eventually, sendMessage, type E2eTest } from "./harness.ts";

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

export const tests: E2eTest[] = [
  {
    name: "continues a curl session, forks it with a stubbed tool result and shows the diff against its parent",
    async run(ctx) {
      const created = await ctx.api<{ sessionId: string }>("/v1/session", {
        method: "POST",
        body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }),
      });
      await eventually("the curl session settled", async () => (await ctx.api<{ session: { status: string } }>(`/v1/session/${created.sessionId}`)).session.status === "waiting", 20_000);
      const { page, context } = await ctx.newPage();
      try {
        // A fresh browser holds no continuation token for it: the playground fetches the owner's.
        await page.goto(`/playground?sessionId=${created.sessionId}`);
        await page.locator('[data-testid=turn][data-status="completed"]').first().waitFor();
        await sendMessage(page, "thanks");
        await eventually("the follow-up answered", async () => (await page.locator('[data-testid=turn][data-status="completed"]').count()) === 2, 20_000);

        await page.getByRole("button", { name: "Fork from here" }).first().click();
        const dialog = page.getByTestId("fork-dialog");
        await dialog.getByRole("checkbox").first().check();
        await dialog.getByRole("textbox", { name: /Stubbed result of inspect_pr/ }).fill('{"title":"Stubbed PR","files":[],"additions":0,"deletions":0}');
        await page.screenshot({ path: path.join(SCREENSHOTS, "fork-dialog-1280.png") });
        await page.getByTestId("fork-submit").click();
        await eventually("the fork opened", async () => new URL(page.url()).searchParams.get("sessionId") !== created.sessionId);
        await page.locator('[data-testid=turn][data-status="completed"]').first().waitFor();

        await page.getByTestId("compare-parent").click();
        const diff = page.getByTestId("run-diff");
        await diff.waitFor();
        await eventually("the diff shows the stubbed result beside the real one", async () => (await diff.textContent())?.includes("Stubbed PR"));
        await page.screenshot({ path: path.join(SCREENSHOTS, "run-diff-1280.png") });
        const text = (await diff.textContent()) ?? "";
        assert(text.includes("Changed parts are marked"), `the diff says the runs differ, got ${text.slice(0, 200)}`);
      } finally {
        await context.close();
      }
    },
  },
];
