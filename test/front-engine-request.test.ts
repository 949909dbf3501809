import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { engineRequest } from "../web/front-routes.ts";

/** What the engine sees of each request the loopback server takes: engineRequest's Request, body read. */
const seen: Array<{ url: string; method: string; headers: Record<string, string>; body: string }> = [];
const server = createServer(async (req: IncomingMessage, res) => {
  const request = engineRequest(req);
  seen.push({
    url: request.url,
    method: request.method,
    headers: Object.fromEntries(request.headers),
    body: await request.text(),
  });
  res.end();
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw header lines (repeats kept), as a client on the wire can; raw lines get no Host nor Content-Length of Node's. */
function send(method: string, path: string, headers: Array<[string, string]>, body = ""): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: [["Host", `127.0.0.1:${port}`], ["Content-Length", String(Buffer.byteLength(body))], ...headers].flat() }, (res) => res.resume().on("end", resolve));
    req.on("error", reject);
    req.end(body);
  });
}

it("hands the engine the client's headers, repeats combined as fetch combines them, on the public origin, with the body", async () => {
  await send(
    "POST",
    "/pr-approver/v1/session",
    [
      ["Content-Type", "application/json"],
      ["X-Bdk-Public-Url", "https://bots.example.com/pr-approver/v1/session"],
      ["Accept", "application/json"],
      ["Accept", "text/plain"],
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
    ],
    '{"message":"hi"}',
  );
  expect(seen.at(-1)).toMatchObject({
    url: "https://bots.example.com/pr-approver/v1/session",
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/plain", "x-bdk-public-url": "https://bots.example.com/pr-approver/v1/session" },
    body: '{"message":"hi"}',
  });
  expect(seen.at(-1)?.headers["set-cookie"]).toBe("a=1, b=2");
});

it("keeps the loopback origin when the public URL header does not parse", async () => {
  await send("GET", "/pr-approver/v1/info", [["X-Bdk-Public-Url", "not a url"]]);
  expect(seen.at(-1)).toMatchObject({ url: `http://127.0.0.1/pr-approver/v1/info`, method: "GET", body: "" });
});
