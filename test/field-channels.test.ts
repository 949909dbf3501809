/**
 * The `channel-public-links` field fixture: an agent-to-agent endpoint that
 * builds its public links from `new URL(request.url).origin` and serves
 * JSON-RPC at `POST /v1/channels/a2a/` (trailing slash), through validate,
 * info, call, run and a real `bdk serve` spoken to over node:http (so the
 * `Host` header and chunked uploads are the client's own).
 */
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeTempProjects } from "../server/load/testing/temp-project.ts";
import { KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

const TOKEN = "field-channels-token";
const env = { BDK_MODEL: "scripted" };
let dir: string;

beforeAll(() => {
  dir = copyProject(path.join(KIT_DIR, "test", "fixtures", "field", "channel-public-links"));
});

afterAll(removeTempProjects);

describe("channel-public-links from the CLI", () => {
  it("validate and info list the routes", async () => {
    expect((await runBdk(["validate", "--dir", dir], env)).stdout.trim()).toBe("orders-desk: valid (0 errors, 0 warnings)");
    const info = JSON.parse((await runBdk(["info", "--dir", dir, "--json"], env)).stdout) as { channels: { routes: { method: string; path: string }[] }[] };
    expect(info.channels[0].routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      "GET /v1/channels/a2a/.well-known/agent.json",
      "POST /v1/channels/a2a",
      "GET /v1/channels/a2a/tasks/:id",
      "POST /v1/channels/a2a/attachments",
    ]);
  });

  it("call and run reach the tool", async () => {
    const called = await runBdk(["call", "order_status", "--dir", dir, "--input", '{"orderId": "1042"}'], env);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: { orderId: "1042", status: "shipped", carrier: "DHL" } });
    const ran = await runBdk(["run", "--dir", dir, "--message", 'order_status {"orderId": "1042"}', "--json"], env);
    expect((JSON.parse(ran.stdout) as { reply: string }).reply).toContain("shipped");
  });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

describe("channel-public-links under bdk serve", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ dir, env, args: ["--bearer-token", TOKEN] });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** One request over node:http: the Host header and the body's framing are exactly what the test says. */
  function send(method: string, route: string, options: { host?: string; headers?: Record<string, string>; body?: string; chunks?: Buffer[] } = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: server.port,
          method,
          path: route,
          headers: { host: options.host ?? `127.0.0.1:${server.port}`, authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...options.headers },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      if (options.chunks) {
        // No content-length: node sends the body with Transfer-Encoding: chunked.
        const write = (index: number): void => {
          if (index === options.chunks!.length) return void req.end();
          if (req.write(options.chunks![index])) write(index + 1);
          else req.once("drain", () => write(index + 1));
        };
        write(0);
      } else {
        req.end(options.body);
      }
    });
  }

  it("links built from new URL(request.url).origin carry the Host and scheme the client used", async () => {
    const card = await send("GET", "/v1/channels/a2a/.well-known/agent.json", { host: "orders.example.com:8443" });
    expect(card.status).toBe(200);
    expect(JSON.parse(card.text)).toEqual({ name: "Orders desk", url: "http://orders.example.com:8443/v1/channels/a2a/", capabilities: { streaming: false } });
    const proxied = await send("GET", "/v1/channels/a2a/.well-known/agent.json", { host: "orders.example.com", headers: { "x-forwarded-proto": "https" } });
    expect(JSON.parse(proxied.text).url).toBe("https://orders.example.com/v1/channels/a2a/");
  });

  it("POST(\"/\") answers POST /v1/channels/a2a/ (trailing slash); request.url keeps the path and query as sent", async () => {
    const rpc = { jsonrpc: "2.0", id: 7, method: "message/send", params: { message: { parts: [{ kind: "text", text: 'order_status {"orderId": "1042"}' }] } } };
    const answered = await send("POST", "/v1/channels/a2a/", { host: "orders.example.com", body: JSON.stringify(rpc) });
    expect(answered.status).toBe(200);
    const { result } = JSON.parse(answered.text) as { result: { taskId: string; status: string; text: string; statusUrl: string } };
    expect(result).toMatchObject({ status: "finished", text: expect.stringContaining("shipped") });
    expect(result.statusUrl).toBe(`http://orders.example.com/v1/channels/a2a/tasks/${result.taskId}`);

    const task = await send("GET", `/v1/channels/a2a/tasks/${result.taskId}?fields=status&lang=en`, { host: "orders.example.com" });
    expect(JSON.parse(task.text)).toEqual({
      taskId: result.taskId,
      status: "waiting",
      rpcId: 7,
      self: `http://orders.example.com/v1/channels/a2a/tasks/${result.taskId}?fields=status&lang=en`,
    });
  });

  it("a /v1 path with a trailing slash answers like the path without it (no redirect to an internal path)", async () => {
    const plain = await send("GET", "/v1/info");
    const slashed = await send("GET", "/v1/info/");
    expect(slashed.status).toBe(200);
    expect(slashed.headers.location).toBeUndefined();
    expect(JSON.parse(slashed.text).name).toBe(JSON.parse(plain.text).name);
    const started = await send("POST", "/v1/session/", { body: JSON.stringify({ message: "hello" }) });
    expect(started.status).toBe(202);
    expect(JSON.parse(started.text)).toMatchObject({ ok: true, sessionId: expect.stringMatching(/^ses_/) });
  });

  it("a chunked upload over 1 MiB to a custom route is answered 413 (a smaller one reaches the handler)", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const small = await send("POST", "/v1/channels/a2a/attachments", { headers: { "content-type": "text/plain" }, chunks: [chunk, chunk] });
    expect(small).toMatchObject({ status: 200, text: JSON.stringify({ received: 2 * chunk.length }) });
    const large = await send("POST", "/v1/channels/a2a/attachments", { headers: { "content-type": "text/plain" }, chunks: Array(48).fill(chunk) });
    expect(large.status).toBe(413);
    expect(JSON.parse(large.text)).toEqual({ ok: false, error: "payload_too_large", message: "The request body is larger than 1048576 bytes." });
  });
});
