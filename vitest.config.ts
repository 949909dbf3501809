import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "cli/**/*.test.ts", "test/**/*.test.ts", "components/**/*.test.ts"],
    // Fixture projects keep their own unit tests beside their tools, as real projects do; they are not the kit's.
    exclude: [...configDefaults.exclude, "test/fixtures/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
