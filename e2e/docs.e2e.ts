import { expect, test } from "./harness.ts";

test("/docs renders the user docs and its search finds the bearer-token page", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link").first()).toBeVisible();
  await page.getByRole("searchbox", { name: "Search the docs" }).fill("bearer");
  await page.getByRole("button", { name: "Search" }).click();
  const results = page.getByTestId("search-results");
  await expect(results, 'the results quote "bearer"').toContainText(/bearer/i);
  await results.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main"), "the page it opens documents --bearer-token").toContainText("--bearer-token");
});
