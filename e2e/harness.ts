/**
 * What an e2e test file gets: a running server (URL + bearer token), a
 * headless Chromium, and small waiting/asserting helpers. Test files export
 * `tests: E2eTest[]`; e2e/run.ts runs them in order.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export interface E2eContext {
  /** The kit checkout under test (where bin/bdk.mjs lives). */
  kitDir: string;
  baseUrl: string;
  token: string;
  browser: Browser;
  /** A fresh browser context (own storage) with the token in the navbar field's storage. */
  newPage(options?: { width?: number; height?: number; colorScheme?: "light" | "dark" }): Promise<{ page: Page; context: BrowserContext }>;
  /** Authenticated JSON request to the server. */
  api<T = unknown>(path: string, init?: RequestInit): Promise<T>;
  /** Values shared between tests of a run (e.g. a session id created earlier). */
  shared: Map<string, unknown>;
}

export interface E2eTest {
  name: string;
  run(ctx: E2eContext): Promise<void>;
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Playwright gives every launch a fresh temporary profile (--user-data-dir) and removes it on close. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export function createContext(kitDir: string, baseUrl: string, token: string, browser: Browser): E2eContext {
  return {
    kitDir,
    baseUrl,
    token,
    browser,
    shared: new Map(),
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
        colorScheme: options.colorScheme ?? "light",
        baseURL: baseUrl,
      });
      await context.addInitScript((value) => window.localStorage.setItem("bdk.bearerToken", value), token);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { page, context };
    },
    async api<T>(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      headers.set("Authorization", `Bearer ${token}`);
      if (init.body) headers.set("Content-Type", "application/json");
      const res = await fetch(`${baseUrl}${path}`, { ...init, headers });
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} → ${res.status}: ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : {}) as T;
    },
  };
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Polls until `check` returns a truthy value (which it returns) or fails with the last reason. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? ` (${lastError instanceof Error ? lastError.message : String(lastError)})` : ""}`);
}

/** The composer textarea. */
export const composer = (page: Page) => page.getByRole("combobox", { name: "Message" });

export async function sendMessage(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press("Enter");
}

export function sessionIdOf(page: Page): string | undefined {
  return new URL(page.url()).searchParams.get("sessionId") ?? undefined;
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
  await eventually(`${name} tab selected`, async () => (await page.getByRole("tab", { name: new RegExp(`^${name}`) }).getAttribute("aria-selected")) === "true");
}
