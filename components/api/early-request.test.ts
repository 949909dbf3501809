import vm from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApi, apiBaseFromPath } from "./api.ts";
import { setToken, TOKEN_KEY } from "./auth-store.ts";
import { requestSessionEventsEarly } from "./early-request.ts";
import type { AnyBdkEvent } from "./types.ts";

const ndjson = (lines: unknown[]) => new Response(lines.map((line) => JSON.stringify(line)).join("\n") + "\n", { status: 200 });

/** A page at `href` whose HTML runs the inline script as the browser would: its own source text, nothing imported. */
function loadPage(href: string, token: string) {
  const url = new URL(href);
  const storage = new Map<string, string>(token ? [[TOKEN_KEY, token]] : []);
  const asked: Array<{ url: string; authorization: string | undefined }> = [];
  const window = {
    location: { pathname: url.pathname, search: url.search },
    localStorage: { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value), removeItem: (key: string) => storage.delete(key) },
  } as unknown as Window;
  const pageFetch = (input: string, init: { headers: Record<string, string> }) => {
    asked.push({ url: input, authorization: init.headers.Authorization });
    return Promise.resolve(ndjson([{ index: 0, type: "session.started", sessionId: "ses_A", data: {} }]));
  };
  vm.runInNewContext(`(${requestSessionEventsEarly.toString()})(${JSON.stringify(TOKEN_KEY)})`, { window, fetch: pageFetch, URLSearchParams, encodeURIComponent, Response, WritableStream });
  vi.stubGlobal("window", window);
  return { asked, pathname: url.pathname };
}

afterEach(() => {
  setToken("");
  vi.unstubAllGlobals();
});

describe("the session's events asked for by the page's HTML", () => {
  it("are the answer the app's first events request takes, with the same URL and token; later requests ask again", async () => {
    const page = loadPage("http://127.0.0.1/acme/playground?sessionId=ses_A&tab=raw", "tok-1");
    setToken("tok-1");
    expect(page.asked).toEqual([{ url: "/acme/v1/session/ses_A/events?startIndex=0", authorization: "Bearer tok-1" }]);
    const appFetch = vi.fn(async () => ndjson([{ index: 1, type: "message.received", sessionId: "ses_A", data: {} }]));
    vi.stubGlobal("fetch", appFetch);
    const api = createApi(apiBaseFromPath(page.pathname));
    const seen: AnyBdkEvent[] = [];
    await api.events("ses_A", 0, (event) => seen.push(event));
    expect(appFetch).not.toHaveBeenCalled();
    expect(seen.map((event) => event.index)).toEqual([0]);
    await api.events("ses_A", 0, (event) => seen.push(event));
    expect(appFetch).toHaveBeenCalledTimes(1);
    expect(seen.map((event) => event.index)).toEqual([0, 1]);
  });

  it("go unused when the token changed before the app asked", async () => {
    loadPage("http://127.0.0.1/playground?sessionId=ses_A", "old");
    setToken("new");
    const appFetch = vi.fn(async () => ndjson([]));
    vi.stubGlobal("fetch", appFetch);
    await createApi("").events("ses_A", 0, () => {});
    expect(appFetch).toHaveBeenCalledTimes(1);
  });

  it("are not asked for without a session in the URL", () => {
    const page = loadPage("http://127.0.0.1/playground?tab=trace", "");
    expect(page.asked).toEqual([]);
  });

  it("stop being read when the app's request is aborted", async () => {
    loadPage("http://127.0.0.1/playground?sessionId=ses_A", "");
    const appFetch = vi.fn(async () => ndjson([]));
    vi.stubGlobal("fetch", appFetch);
    const abort = new AbortController();
    abort.abort();
    await expect(createApi("").events("ses_A", 0, () => {}, abort.signal)).rejects.toThrow();
    expect(appFetch).not.toHaveBeenCalled();
  });
});
