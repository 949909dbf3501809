/**
 * A session opened by URL (`/playground?sessionId=…`) needs its `/events`
 * first, and the playground's JavaScript takes hundreds of milliseconds to
 * load, run and hydrate before the feed could ask. So the page's HTML carries
 * `requestSessionEventsEarly` as an inline script: it starts that request while
 * the bundles still download, and the first matching GET (`fetchWithAuth`, same
 * URL, same token) takes the response instead of asking again. Had the two
 * ever built different URLs, the early answer would go unused: slower, never wrong.
 */

interface EarlyRequest {
  url: string;
  token: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    bdkEarlyRequest?: EarlyRequest;
  }
}

/**
 * Runs inline in the page head, before any bundle, as its own source text
 * (`Function.prototype.toString`): it must use nothing but its arguments and
 * browser globals. The URL is the one `createApi(apiBaseFromPath(path)).events(id, 0)` fetches.
 */
export function requestSessionEventsEarly(tokenKey: string): void {
  try {
    const sessionId = new URLSearchParams(window.location.search).get("sessionId");
    if (!sessionId) return;
    const base = window.location.pathname.replace(/\/+$/, "").replace(/\/playground$/, "");
    const url = `${base}/v1/session/${encodeURIComponent(sessionId)}/events?startIndex=0`;
    let token = "";
    try {
      token = window.localStorage.getItem(tokenKey) ?? "";
    } catch {
      // Storage disabled: ask without a token, as the app will.
    }
    const headers: Record<string, string> = { Accept: "application/x-ndjson" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = fetch(url, { cache: "no-store", headers }).then((answer) => {
      if (!answer.body) return answer;
      // Read it now: a body nobody reads stops arriving once the browser's buffer is full. The
      // drained branch pulls it all in; the kept one holds it for the app, still as a stream.
      const [kept, drained] = answer.body.tee();
      drained.pipeTo(new WritableStream()).catch(() => {});
      return new Response(kept, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    });
    // A failure surfaces where the response is taken; one never taken must not be reported as unhandled.
    response.catch(() => {});
    window.bdkEarlyRequest = { url, token, response };
  } catch {
    // The app asks by itself.
  }
}

/** The early response for a GET of `url` under `token`, at most once; undefined when there is none to take. */
export function takeEarlyResponse(url: string, token: string, signal?: AbortSignal): Promise<Response> | undefined {
  const early = typeof window === "undefined" ? undefined : window.bdkEarlyRequest;
  if (!early || early.url !== url || early.token !== token) return undefined;
  window.bdkEarlyRequest = undefined;
  return early.response.then((response) => abortable(response, signal));
}

/** The request was started without the caller's signal: aborting it now ends the body, as it would a fetch of its own. */
function abortable(response: Response, signal: AbortSignal | undefined): Response {
  if (!signal || !response.body) return response;
  return new Response(response.body.pipeThrough(new TransformStream(), { signal }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
