/**
 * Request lines and values a client library would never send, against a real
 * `bdk serve`: each gets a 4xx with the JSON envelope, never a plain-text 500.
 */
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { type RunningServer, startServer } from "./support/bdk-server.ts";

let server: RunningServer;
beforeAll(async () => {
  const dir = tempProject({
    "package.json": '{ "name": "hostile", "type": "module" }',
    "bot/instructions.md": "You answer briefly.",
    "bot/channels/kettle.ts":
      'import { defineChannel, GET } from "bdk/channels";\n' +
      'export default defineChannel({ routes: [GET("/teapot", async () => new Response("short and stout", { status: 418, headers: { "content-type": "text/plain" } }))] });\n',
  });
  server = await startServer({ dir });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeTempProjects();
});

/** One request through node:http, which sends methods and escapes as given (fetch refuses TRACE). */
function send(method: string, target: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, method, path: target, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

it("answers a malformed percent-escape in the path with 400 and the envelope naming it", async () => {
  for (const target of ["/v1/session/%E0%A4%A", "/%/v1/tools", "/v1/session/%ED%A0%80/events"]) {
    const answer = await send("GET", target);
    expect(answer.status, target).toBe(400);
    expect(answer.headers["content-type"]).toContain("application/json");
    const envelope = JSON.parse(answer.body);
    expect(envelope).toMatchObject({ ok: false, error: "invalid_request" });
    expect(envelope.message).toContain("percent-escape");
  }
  expect(JSON.parse((await send("GET", "/v1/session/%E0%A4%A")).body).message).toContain('"%E0%A4%A"');
});

it("answers TRACE and other unknown methods with 405, Allow and the envelope", async () => {
  for (const method of ["TRACE", "PROPFIND", "FOO"]) {
    const answer = await send(method, "/v1/sessions");
    expect(answer.status, method).toBe(405);
    expect(answer.headers.allow).toContain("GET");
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: "method_not_allowed" });
  }
});

it("answers a method a route does not take, and an unknown /v1 route, with the envelope", async () => {
  const put = await send("PUT", "/v1/sessions");
  expect(put.status).toBe(405);
  expect(JSON.parse(put.body)).toMatchObject({ ok: false, error: "method_not_allowed" });
  const unknown = await send("GET", "/v1/no/such/route");
  expect(unknown.status).toBe(404);
  expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: "not_found" });
});

it("answers a streamed body over the limit with 413, and the next request on that connection too", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const create = (chunks: string[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: server.port, method: "POST", path: "/v1/session", agent, headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  try {
    const huge = await create(['{"message":"', "x".repeat(700_000), "x".repeat(700_000), '"}']);
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ ok: false, error: "payload_too_large" });
    const next = await create(['{"message":"hello"}']);
    expect(next.status).toBe(202);
  } finally {
    agent.destroy();
  }
});

it("logs a body cut short by the client as its request error, not as a failure of the route", async () => {
  const before = server.output().length;
  for (let attempt = 0; attempt < 5; attempt++) {
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write('POST /v1/session HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"message":');
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on("close", () => resolve());
    });
  }
  await vi.waitFor(() => expect(server.output().slice(before)).toContain("The request body ended early: the client closed the connection."));
  expect(server.output().slice(before)).not.toContain("Unhandled error");
});

it("refuses a limit that is not a whole number with 400 naming the value", async () => {
  for (const route of ["/v1/evals/runs", "/v1/sessions", "/v1/artifacts"]) {
    const answer = await send("GET", `${route}?limit=1.5`);
    expect(answer.status, route).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringContaining('"1.5"') });
  }
  expect((await send("GET", "/v1/evals/runs?limit=20")).status).toBe(200);
});

it("answers headers larger than Node accepts with 431 and the envelope", async () => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path: "/v1/info", headers: { "x-big": "v".repeat(40_000) } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end();
  });
  expect(answer.status).toBe(431);
  expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: "headers_too_large" });
});

it("leaves a channel handler's own error answer as it wrote it, and names the channel's routes for another method", async () => {
  const teapot = await send("GET", "/v1/channels/kettle/teapot");
  expect(teapot.status).toBe(418);
  expect(teapot.body).toBe("short and stout");
  const put = await send("PUT", "/v1/channels/kettle/teapot");
  expect(put.status).toBe(404);
  expect(JSON.parse(put.body)).toMatchObject({ ok: false, error: "not_found", message: expect.stringContaining("GET /teapot") });
});
