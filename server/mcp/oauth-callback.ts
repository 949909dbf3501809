/**
 * The loopback redirect target of `bdk mcp oauth`: a one-shot HTTP server on
 * 127.0.0.1 that waits for the browser to come back with `code` (or `error`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface OAuthCallback {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  /** The `code` of the first redirect carrying `state`; rejects on `error=` or after `timeoutMs`. */
  waitForCode(state: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

/** The small page the browser lands on after authorizing (here, and the dev server's callback route). */
export function authorizationPage(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p style="font:16px system-ui;margin:3em">${escapeHtml(text)}</p>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Listens on `preferredPort` when it is free (so a client registered by an
 * earlier run keeps a valid redirect URI), otherwise on a random port.
 */
export async function startOAuthCallback(preferredPort?: number): Promise<OAuthCallback> {
  let deliver: (url: URL, res: http.ServerResponse) => void = (_url, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    deliver(url, res);
  });
  const port = await listen(server, preferredPort).catch(() => listen(server, 0));
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    waitForCode(state, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`the browser did not come back within ${Math.round(timeoutMs / 60_000)} minutes; run the command again`));
        }, timeoutMs);
        deliver = (url, res) => {
          const html = (status: number, title: string, text: string) =>
            res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(authorizationPage(title, text));
          // A stale tab or another site cannot hand us a code: only the request we started carries this state.
          if (url.searchParams.get("state") !== state) {
            html(400, "Unexpected request", "This authorization request is not the one bdk is waiting for.");
            return;
          }
          clearTimeout(timer);
          const error = url.searchParams.get("error");
          const code = url.searchParams.get("code");
          if (error || !code) {
            const description = url.searchParams.get("error_description");
            html(400, "Authorization failed", "Authorization failed; see the terminal.");
            reject(new Error(`the authorization server answered "${error ?? "no code"}"${description ? `: ${description}` : ""}`));
            return;
          }
          html(200, "Authorized", "Authorized. You can close this tab and return to the terminal.");
          resolve(code);
        };
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listen(server: http.Server, port: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
