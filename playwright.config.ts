/**
 * Browser tests (e2e/*.e2e.ts) on @playwright/test in Debian's Chromium,
 * against a real `bdk serve` of pr-approver with the scripted model (the
 * `webServer` below; tests needing another project start their own through
 * e2e/server-process.ts).
 *
 *   npx playwright test [title filter]     (npm run test:e2e)
 *
 * E2E_KIT_DIR=<dir> serves another checkout of the kit (e.g. a copy without
 * someone's half-written routes); tests and screenshots stay in this one.
 * Traces of failed tests land in test-results/e2e/ (`npx playwright show-trace`);
 * test-results/e2e.json is the report scripts/summary.mjs counts.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/browser.ts";
import { chooseMainServer, KIT_DIR } from "./e2e/main-server.ts";

const server = await chooseMainServer();

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.e2e.ts",
  // One server, one browser, tests in file order: the machine has two shared cores.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  outputDir: "test-results/e2e",
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    browserName: "chromium",
    baseURL: server.baseUrl,
    viewport: { width: 1280, height: 860 },
    colorScheme: "light",
    actionTimeout: 20_000,
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `node bin/bdk.mjs serve --dir bot-examples/pr-approver --port ${server.port} --state-root ${server.stateRoot} --bearer-token ${server.token}`,
    cwd: KIT_DIR,
    env: { BDK_MODEL: "scripted" },
    url: `${server.baseUrl}/health`,
    // The first start may build the web app (about a minute on two cores).
    timeout: 240_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
