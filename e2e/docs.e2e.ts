import { assert, type E2eTest } from "./harness.ts";

export const tests: E2eTest[] = [
  {
    name: "/docs renders the user docs and its search finds the bearer-token page",
    async run(ctx) {
      const { page, context } = await ctx.newPage();
      try {
        await page.goto("/docs");
        await page.getByRole("navigation", { name: "Pages" }).getByRole("link").first().waitFor();
        await page.getByRole("searchbox", { name: "Search the docs" }).fill("bearer");
        await page.getByRole("button", { name: "Search" }).click();
        const results = page.getByTestId("search-results");
        await results.waitFor();
        const first = results.getByRole("link").first();
        const text = (await results.textContent()) ?? "";
        assert(/bearer/i.test(text), `the results quote "bearer": ${text.slice(0, 200)}`);
        await first.click();
        await page.getByRole("heading", { level: 1 }).waitFor();
        const body = (await page.locator("main").textContent()) ?? "";
        assert(/--bearer-token/.test(body), "the page it opens documents --bearer-token");
      } finally {
        await context.close();
      }
    },
  },
];
