/**
 * End-to-end run: starts `bdk serve` on the pr-approver example with the
 * scripted model, runs every e2e/*.e2e.ts test in headless Chromium, writes
 * screenshots of each tab to docs/screenshots/, stops the server, and prints
 * `N passed, M failed` (exit code 1 on any failure).
 *
 *   node --import tsx e2e/run.ts [name filter]
 *
 * E2E_KIT_DIR=<dir> serves another checkout of the kit (e.g. a copy without
 * someone's half-written routes); tests and screenshots stay in this one.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { createContext, launchChromium, type E2eTest } from "./harness.ts";
import { captureScreenshots } from "./screenshots.ts";
import { startServer, type ServerProcess } from "./server-process.ts";

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_DIR = path.resolve(E2E_DIR, "..");
const KIT_DIR = process.env.E2E_KIT_DIR ? path.resolve(process.env.E2E_KIT_DIR) : REPO_DIR;

async function loadTests(filter: string | undefined): Promise<Array<{ file: string; test: E2eTest }>> {
  const files = readdirSync(E2E_DIR).filter((name) => name.endsWith(".e2e.ts")).sort();
  const all: Array<{ file: string; test: E2eTest }> = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(E2E_DIR, file)).href)) as { tests?: E2eTest[] };
    for (const test of module.tests ?? []) if (!filter || test.name.includes(filter)) all.push({ file, test });
  }
  return all;
}

async function main(): Promise<number> {
  const filter = process.argv[2];
  const tests = await loadTests(filter);
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  const record = (name: string, error?: unknown, ms?: number) => {
    if (error) {
      failed++;
      console.log(`✗ ${name}\n    ${error instanceof Error ? (error.stack ?? error.message).split("\n").slice(0, 4).join("\n    ") : String(error)}`);
    } else {
      passed++;
      console.log(`✓ ${name}${ms !== undefined ? ` (${ms} ms)` : ""}`);
    }
  };

  try {
    server = await startServer(KIT_DIR, path.join(KIT_DIR, "bot-examples", "pr-approver"), path.join(E2E_DIR, ".work"));
    browser = await launchChromium();
    const ctx = createContext(KIT_DIR, server.baseUrl, server.token, browser);
    for (const { file, test } of tests) {
      const started = Date.now();
      try {
        await test.run(ctx);
        record(`${file} › ${test.name}`, undefined, Date.now() - started);
      } catch (err) {
        record(`${file} › ${test.name}`, err);
      }
    }
    if (!filter) {
      try {
        const files = await captureScreenshots(ctx, path.join(REPO_DIR, "docs", "screenshots"));
        record(`screenshots (${files.length} written to docs/screenshots/)`);
      } catch (err) {
        record("screenshots", err);
      }
    }
  } catch (err) {
    record("setup", err);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  mkdirSync(path.join(REPO_DIR, "test-results"), { recursive: true });
  writeFileSync(path.join(REPO_DIR, "test-results", "e2e.json"), JSON.stringify({ passed, failed }));
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
