/**
 * The browser side shared by the e2e tests (run by @playwright/test) and the
 * bench scripts (plain playwright-core): Debian's Chromium and its flags, and a
 * client for one running `bdk serve` (authenticated pages and API calls).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium (scripts/setup.sh --for-tests installs it); `npx playwright install` cannot download browsers here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** For the bench scripts; tests get their browser from the runner (playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface BdkServer {
  baseUrl: string;
  token: string;
}

export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: "light" | "dark";
}

export interface BdkClient extends BdkServer {
  /** A fresh browser context (own storage) on this server, signed in with its token. */
  newPage(options?: PageOptions): Promise<{ page: Page; context: BrowserContext }>;
  /** Authenticated JSON request to the server; throws on a non-2xx answer. */
  api<T = unknown>(path: string, init?: RequestInit): Promise<T>;
}

/** The playground reads the bearer token from localStorage (the navbar field writes it there). */
export async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value) => window.localStorage.setItem("bdk.bearerToken", value), token);
}

export function bdkClient(server: BdkServer, browser: Browser): BdkClient {
  return {
    ...server,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
        colorScheme: options.colorScheme ?? "light",
        baseURL: server.baseUrl,
      });
      await signIn(context, server.token);
      return { page: await context.newPage(), context };
    },
    async api<T>(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      headers.set("Authorization", `Bearer ${server.token}`);
      if (init.body) headers.set("Content-Type", "application/json");
      const res = await fetch(`${server.baseUrl}${path}`, { ...init, headers });
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} → ${res.status}: ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : {}) as T;
    },
  };
}

/** Clicks a playground tab and waits until it is the selected one. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
  await page.getByRole("tab", { name: new RegExp(`^${name}`), selected: true }).waitFor();
}
