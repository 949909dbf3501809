import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { hasForwardingHeaders } from "../server/auth/policies.ts";
import { IdleTrim } from "../server/host/idle-trim.ts";
import { FORWARDED_HEADER, type HttpHost, PEER_HEADER } from "../server/http/http-host.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { ensureBuilt, KIT_DIR } from "./build.ts";
import { CompressedStatic } from "./compressed-static.ts";
import { answerClientError, envelopeNextErrors, requestLineProblem, sendError } from "./front-errors.ts";
import { answerHealth, answerInfo, answerConversation } from "./front-routes.ts";
import { isApiPath, mapRequest } from "./request-mapping.ts";
import { setHttpHost } from "./route-adapter.ts";

export interface WebServerOptions {
  host: string;
  port: number;
  httpHost: HttpHost;
  log?: (line: string) => void;
  /** Boots the web app (default: the production Next.js app of the kit); tests hold it back to see the front answer alone. */
  bootWebApp?: (options: WebAppOptions) => Promise<WebApp>;
}

export interface WebAppOptions {
  hostname: string;
  port: number;
  log: (line: string) => void;
}

/** A booted web app: its request handler, and how to shut it down. */
export interface WebApp {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export interface WebServer {
  url: string;
  server: Server;
  /** Settles when the web app has booted (rejects when it failed: the server keeps answering the front routes). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** How long the web app may take before the log says it is still starting. */
const SLOW_BOOT_MS = 20_000;
/** When the web app boots unasked, so the first page or API call after a start finds it ready. */
const WARM_UP_MS = 1_000;

/**
 * Listens at once and boots the web app (Next.js) shortly after, or at the
 * first request that needs it: the front answers `/health`, `/v1/info` and
 * the conversation routes itself (front-routes.ts) from the first request, every
 * other request waits for the web app. The front records the socket peer for auth (dropping any
 * client-sent copy) and the URL the client used, then maps the path for
 * Next.js (request-mapping.ts).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  setHttpHost(options.httpHost);
  const assets = new CompressedStatic(path.join(KIT_DIR, ".next", "static"));
  const single = options.httpHost.options.mode === "single" ? options.httpHost.options.agents[0]?.slug : undefined;
  let booting: Promise<WebApp> | undefined;
  let failure: BdkError | undefined;
  let markReady!: (booted: Promise<WebApp>) => void;
  const ready = new Promise<WebApp>((resolve) => (markReady = resolve)).then(() => undefined);
  // Reported when it happens; a caller that never awaits `ready` must not turn it into an unhandled rejection.
  ready.catch(() => undefined);
  let closing = false;
  /** Starts the web app once: on the first request that needs it, or after the warm-up delay. */
  const boot = (): Promise<WebApp> => {
    if (booting) return booting;
    // A close that began before the warm-up fired: the closed server has no port to boot against.
    if (closing) return Promise.reject(new BdkError("not_ready", "The server is closing."));
    const started = Date.now();
    const slow = setTimeout(
      () => log(`The web app is still starting (${Math.round((Date.now() - started) / 1000)} s): /health and /v1/info answer; other requests wait for it.`),
      SLOW_BOOT_MS,
    );
    slow.unref();
    booting = (options.bootWebApp ?? bootNextApp)({ hostname: options.host, port: (server.address() as AddressInfo).port, log }).finally(() =>
      clearTimeout(slow),
    );
    booting.catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      failure = new BdkError("internal", `The web app failed to start: ${reason.split("\n")[0]} (/health and /v1/info still answer; see the server log).`);
      log(`The web app (Next.js) failed to start: ${reason}`);
    });
    booting.then(() => trim.settled(), () => undefined);
    markReady(booting);
    return booting;
  };

  const trim = new IdleTrim();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
    req.headers[FORWARDED_HEADER] = hasForwardingHeaders(req.headers) ? "1" : "0";
    const url = req.url ?? "/";
    const problem = requestLineProblem(req.method, url);
    if (problem) {
      sendError(res, problem);
      return;
    }
    // A health probe is not traffic: a supervisor probing every few seconds must not keep the server from counting as idle.
    if (answerHealth(req, res)) return;
    trim.touch();
    if (!options.httpHost.options.playground && isPlaygroundPath(pathnameOf(url))) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"ok":false,"error":"not_found","message":"The playground is disabled (--no-playground)."}');
      return;
    }
    if (assets.handle(req, res)) return;
    mapRequest(req, single);
    if (answerInfo(req, res, options.httpHost) || answerConversation(req, res, options.httpHost)) return;
    if (failure) {
      sendError(res, failure);
      return;
    }
    void boot().then(
      (app) => {
        if (isApiPath(req.url ?? "/")) envelopeNextErrors(req, res, url);
        return app.handle(req, res);
      },
      // The boot's failure, or the closing server's refusal (boot() rejects with a BdkError then).
      (error: unknown) => sendError(res, failure ?? (error instanceof BdkError ? error : new BdkError("internal", String(error)))),
    );
  });
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // Loading Next.js holds the event loop for a second or more: not before the first front requests (a readiness probe) are answered.
  const warmUp = setTimeout(() => boot().catch(() => undefined), WARM_UP_MS);
  warmUp.unref();
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostForUrl}:${address.port}`,
    server,
    ready,
    async close() {
      closing = true;
      clearTimeout(warmUp);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      trim.stop();
      await booting?.then((app) => app.close(), () => undefined);
      setHttpHost(undefined);
    },
  };
}

/**
 * The production Next.js app of the kit, built first when its sources changed.
 * Next.js is imported here, not at the top: its modules load after the server listens.
 */
export async function bootNextApp({ hostname, port, log }: WebAppOptions): Promise<WebApp> {
  await ensureBuilt(log);
  // Next.js would load the .env files of its own directory, the kit's, into every served project.
  // This is @next/env's marker for "already loaded"; the project's files were read by the CLI.
  process.env.__NEXT_PROCESSED_ENV = "true";
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: KIT_DIR, hostname, port, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  return { handle: (req, res) => handle(req, res), close: async () => app.close?.() };
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
