/**
 * A real HTTP server on 127.0.0.1 standing in for the Slack Web API
 * (`/api/chat.postMessage`, `/api/chat.update`) and the GitHub REST API
 * (`POST /repos/:owner/:repo/pulls/:n/reviews`) and the Cursor Cloud Agents
 * API (`POST /v0/agents`, for `CURSOR_API_BASE_URL`). It records every
 * request so tests can assert what the kit sent.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface PlatformRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON bodies parsed; form bodies (what @slack/web-api sends) as an object of strings. */
  body: Record<string, unknown>;
  /** What the server answered. */
  reply: Record<string, unknown>;
}

export interface PlatformApiServer {
  url: string;
  /** Base URL for `SLACK_API_URL`. */
  slackApiUrl: string;
  requests: PlatformRequest[];
  /** Resolves with the first request (old or new) matching `predicate`. */
  waitFor(predicate: (request: PlatformRequest) => boolean, timeoutMs?: number): Promise<PlatformRequest>;
  close(): Promise<void>;
}

export async function startPlatformApiServer(): Promise<PlatformApiServer> {
  const requests: PlatformRequest[] = [];
  const waiters = new Set<() => void>();
  let messages = 0;
  let cloudAgents = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const type = String(req.headers["content-type"] ?? "");
      const body = type.includes("json") ? (JSON.parse(text || "{}") as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
      const path = (req.url ?? "/").split("?")[0];
      let reply: Record<string, unknown>;
      if (path === "/api/chat.postMessage") {
        messages++;
        reply = { ok: true, channel: body.channel, ts: `${1700000000 + messages}.000100` };
      } else if (path === "/api/chat.update") {
        reply = { ok: true, channel: body.channel, ts: body.ts };
      } else if (/^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/.test(path) && req.method === "POST") {
        reply = { id: 101, html_url: `https://github.com${path.replace("/repos", "").replace("/pulls/", "/pull/")}` };
      } else if (path === "/v0/agents" && req.method === "POST") {
        cloudAgents++;
        reply = { id: `bc_${cloudAgents}`, name: body.name ?? "Cloud agent", status: "CREATING", source: body.source };
      } else {
        res.statusCode = 404;
        reply = { ok: false, error: "unknown_method" };
      }
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body, reply });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(reply));
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    slackApiUrl: `${url}/api/`,
    requests,
    waitFor(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.find(predicate);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching platform request in ${timeoutMs} ms; got:\n${JSON.stringify(requests, null, 1)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
