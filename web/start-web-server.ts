import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import next from "next";
import { hasForwardingHeaders } from "../server/auth/policies.ts";
import { FORWARDED_HEADER, type HttpHost, PEER_HEADER } from "../server/http/http-host.ts";
import { ensureBuilt, KIT_DIR } from "./build.ts";
import { CompressedStatic } from "./compressed-static.ts";
import { answerClientError, envelopeNextErrors, requestLineProblem, sendError } from "./front-errors.ts";
import { isApiPath, mapRequest } from "./request-mapping.ts";
import { setHttpHost } from "./route-adapter.ts";

export interface WebServerOptions {
  host: string;
  port: number;
  httpHost: HttpHost;
  log?: (line: string) => void;
}

export interface WebServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Boots the production Next.js app in this process with the engine attached.
 * The front records the socket peer for auth (dropping any client-sent copy)
 * and the URL the client used, then maps the path for Next.js (request-mapping.ts).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  await ensureBuilt(options.log);
  setHttpHost(options.httpHost);
  // Next.js would load the .env files of its own directory, the kit's, into every served project.
  // This is @next/env's marker for "already loaded"; the project's files were read by the CLI.
  process.env.__NEXT_PROCESSED_ENV = "true";
  const app = next({ dev: false, dir: KIT_DIR, hostname: options.host, port: options.port, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  const assets = new CompressedStatic(path.join(KIT_DIR, ".next", "static"));
  const single = options.httpHost.options.mode === "single" ? options.httpHost.options.agents[0]?.slug : undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
    req.headers[FORWARDED_HEADER] = hasForwardingHeaders(req.headers) ? "1" : "0";
    const url = req.url ?? "/";
    const problem = requestLineProblem(req.method, url);
    if (problem) {
      sendError(res, problem);
      return;
    }
    if (url === "/health" || url.startsWith("/health?")) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (!options.httpHost.options.playground && isPlaygroundPath(pathnameOf(url))) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"ok":false,"error":"not_found","message":"The playground is disabled (--no-playground)."}');
      return;
    }
    if (assets.handle(req, res)) return;
    mapRequest(req, single);
    if (isApiPath(req.url ?? "/")) envelopeNextErrors(req, res, url);
    void handle(req, res);
  });
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostForUrl}:${address.port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close?.();
      setHttpHost(undefined);
    },
  };
}

/** The normalised path of a request target; `//x` and other targets URL cannot resolve keep their raw path. */
function pathnameOf(url: string): string {
  try {
    return new URL(url, "http://x").pathname;
  } catch {
    return url.split("?")[0];
  }
}

/** `/`, `/playground` and `/<slug>/playground`: what `--no-playground` removes (with `/v1/agents`). */
function isPlaygroundPath(pathname: string): boolean {
  return pathname === "/" || /^\/(?:[^/]+\/)?playground\/?$/.test(pathname) || pathname.startsWith("/_next/");
}
