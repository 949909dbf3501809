/**
 * The front's per-request cost of handing a Node request to the engine
 * (`engineRequest` in web/front-routes.ts): a fetch `Request` from an
 * `IncomingMessage` with a browser's usual headers, a header read
 * as a route reads it. Prints µs per request for a GET and a POST: nine
 * rounds, their fastest and median (the machine's other work shows in the
 * slow ones).
 * Run: npx tsx bench/http/engine-request.ts
 */
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { engineRequest } from "../../web/front-routes.ts";
import { median } from "./workloads.ts";

const HEADERS = {
  host: "127.0.0.1:8787",
  connection: "keep-alive",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  accept: "application/x-ndjson",
  "accept-language": "en-US,en;q=0.9",
  "accept-encoding": "gzip, deflate, br",
  "sec-fetch-mode": "cors",
  "x-bdk-public-url": "https://bots.example.com/pr-approver/v1/session",
};

function incoming(method: string, url: string, headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = url;
  req.headers = headers;
  return req;
}

function microsPerRequest(req: IncomingMessage, count: number): number {
  const started = performance.now();
  for (let i = 0; i < count; i++) engineRequest(req).headers.get("accept");
  return ((performance.now() - started) * 1000) / count;
}

const get = incoming("GET", "/pr-approver/v1/session/ses_1/stream", HEADERS);
const post = incoming("POST", "/pr-approver/v1/session", { ...HEADERS, "content-type": "application/json", "content-length": "64" });
for (const [label, req] of [["GET", get], ["POST", post]] as const) {
  microsPerRequest(req, 20_000);
  const rounds = Array.from({ length: 9 }, () => microsPerRequest(req, 30_000));
  console.log(`engineRequest ${label}: fastest ${Math.min(...rounds).toFixed(2)} µs/request, median ${median(rounds).toFixed(2)} (rounds of 30,000)`);
}
