/**
 * The HTTP front's rewriting of answers: a route's answer passes through
 * without the kit's internal marker header, whichever form of headers
 * `writeHead` was given, and the envelopes it writes itself carry nothing a
 * client sent in its headers.
 */
import { createServer, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeNextErrors } from "../web/front-errors.ts";
import { ROUTE_ANSWER_HEADER } from "../web/route-adapter.ts";

const FORMS: Record<string, OutgoingHttpHeaders | string[] | string[][]> = {
  object: { "content-type": "text/plain", [ROUTE_ANSWER_HEADER]: "1", "x-kept": "yes" },
  flat: ["content-type", "text/plain", ROUTE_ANSWER_HEADER, "1", "x-kept", "yes"],
  nested: [["content-type", "text/plain"], [ROUTE_ANSWER_HEADER, "1"], ["x-kept", "yes"]],
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    envelopeNextErrors(req, res, req.url);
    const form = new URL(req.url ?? "/", "http://x").searchParams.get("form");
    if (form) {
      res.writeHead(req.url?.startsWith("/v1/fail") ? 502 : 200, FORMS[form] as OutgoingHttpHeaders);
      res.end("from the route");
      return;
    }
    // As the front does: the path is mapped for Next.js (single mode prefixes the agent's slug).
    req.url = `/the-agent${req.url}`;
    // What Next.js does for an unknown route: its own 404 page.
    res.writeHead(404, { "content-type": "text/html", "set-cookie": req.headers.cookie ?? "" });
    res.end("<html>not found</html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the front's answers", () => {
  for (const form of Object.keys(FORMS)) {
    it(`passes a route's answer through without the internal marker (headers as ${form})`, async () => {
      for (const route of ["/v1/ok", "/v1/fail"]) {
        const response = await fetch(`${base}${route}?form=${form}`);
        expect(response.headers.get(ROUTE_ANSWER_HEADER)).toBeNull();
        expect(response.headers.get("x-kept")).toBe("yes");
        expect(await response.text()).toBe("from the route");
      }
    });
  }

  it("answers Next.js's own error page with an envelope that echoes no request header", async () => {
    const response = await fetch(`${base}/v1/nope`, { headers: { cookie: "session=SECRET-COOKIE", authorization: "Bearer SECRET-TOKEN", "x-other": "SECRET-OTHER" } });
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ ok: false, error: "not_found", message: "No route GET /v1/nope. See GET /v1/info for what this agent serves." });
    expect(text).not.toContain("SECRET");
    expect([...response.headers.values()].join("\n")).not.toContain("SECRET");
  });
});
