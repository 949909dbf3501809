/**
 * The `bdk serve` most e2e tests share (pr-approver, scripted model), started by
 * Playwright's `webServer` (playwright.config.ts). The runner picks its port,
 * token and state directory once and puts them in the environment; the test
 * workers, which load the config again, inherit them from there.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server-process.ts";
import type { BdkServer } from "./browser.ts";

/** The kit checkout under test (where bin/bdk.mjs lives): this one, or E2E_KIT_DIR. */
export const KIT_DIR = process.env.E2E_KIT_DIR ? path.resolve(process.env.E2E_KIT_DIR) : path.resolve(import.meta.dirname, "..");

export interface MainServer extends BdkServer {
  port: number;
  stateRoot: string;
}

export async function chooseMainServer(): Promise<MainServer> {
  process.env.BDK_E2E_PORT ??= String(await freePort());
  process.env.BDK_E2E_TOKEN ??= `e2e-${randomUUID()}`;
  process.env.BDK_E2E_STATE_ROOT ??= mkdtempSync(path.join(tmpdir(), "bdk-e2e-state-"));
  return mainServer();
}

export function mainServer(): MainServer {
  const { BDK_E2E_PORT: port, BDK_E2E_TOKEN: token, BDK_E2E_STATE_ROOT: stateRoot } = process.env;
  if (!port || !token || !stateRoot) throw new Error("the e2e server is chosen by playwright.config.ts; run the tests with `npx playwright test`");
  return { port: Number(port), baseUrl: `http://127.0.0.1:${port}`, token, stateRoot };
}
