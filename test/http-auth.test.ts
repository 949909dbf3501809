import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { startProcess } from "./support/run-process.ts";

const EXAMPLES = path.join(KIT_DIR, "bot-examples");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe("bearer tokens", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      dir: path.join(EXAMPLES, "pr-approver"),
      args: ["--bearer-token", "alpha-secret", "--bearer-token", "beta-secret"],
    });
    servers.push(server);
  }, 180_000);

  const as = (token: string, route: string, init: RequestInit = {}) =>
    fetch(`${server.url}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });

  it("gives each token its own sessions: another principal gets 403 on every session route", async () => {
    const created = (await (
      await as("alpha-secret", "/v1/session", { method: "POST", body: JSON.stringify({ message: "hello" }) })
    ).json()) as Record<string, string>;
    const id = created.sessionId;
    const attempts: Array<[string, RequestInit]> = [
      [`/v1/session/${id}`, {}],
      [`/v1/session/${id}/events`, {}],
      [`/v1/session/${id}/stream`, {}],
      [`/v1/session/${id}/stop`, { method: "POST" }],
      [`/v1/session/${id}`, { method: "POST", body: JSON.stringify({ message: "x", continuationToken: "y" }) }],
      [`/v1/session/${id}`, { method: "DELETE" }],
    ];
    for (const [route, init] of attempts) {
      const response = await as("beta-secret", route, init);
      expect(response.status, route).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe("forbidden");
    }
    const own = await as("alpha-secret", `/v1/session/${id}`);
    expect(own.status).toBe(200);
    const listed = (await (await as("beta-secret", "/v1/sessions")).json()) as { sessions: unknown[] };
    expect(listed.sessions).toEqual([]);
  });

  it("answers 401 with WWW-Authenticate when neither the token nor loopback admits the caller", async () => {
    const response = await fetch(`${server.url}/v1/info`, {
      headers: { authorization: "Bearer wrong", "x-forwarded-for": "198.51.100.4" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    expect(((await response.json()) as { error: string }).error).toBe("unauthenticated");
    const proxiedWithToken = await fetch(`${server.url}/v1/info`, {
      headers: { authorization: "Bearer alpha-secret", "x-forwarded-for": "198.51.100.4" },
    });
    expect(proxiedWithToken.status).toBe(200);
  });

  it("matches the scheme case-insensitively and the credentials exactly as sent", async () => {
    const proxied = (authorization: string) =>
      fetch(`${server.url}/v1/info`, { headers: { authorization, "x-forwarded-for": "198.51.100.4" } });
    expect((await proxied("bearer alpha-secret")).status).toBe(200);
    expect((await proxied("BEARER  alpha-secret")).status).toBe(200);
    expect((await proxied("Bearer alpha-secret\u00a0")).status).toBe(401);
    expect((await proxied("Bearer \u00a0alpha-secret")).status).toBe(401);
    expect((await proxied("Basic alpha-secret")).status).toBe(401);
  });

  it("treats CDN, load-balancer and mesh client-address headers as forwarding: loopback is not enough", async () => {
    const headers = [
      "True-Client-IP",
      "CF-Connecting-IP",
      "X-Client-IP",
      "X-Cluster-Client-IP",
      "Forwarded-For",
      "X-Original-Forwarded-For",
      "Fastly-Client-IP",
      "X-Forwarded-Server",
      "X-ProxyUser-Ip",
      "X-Envoy-External-Address",
    ];
    for (const header of headers) {
      const response = await fetch(`${server.url}/v1/info`, { headers: { [header]: "198.51.100.4" } });
      expect(response.status, header).toBe(401);
    }
    expect((await fetch(`${server.url}/v1/info`)).status).toBe(200);
  });
});

describe("an empty bearer token", () => {
  /** The exit of `bdk serve`; a server that starts instead is stopped and reported as `code: "served"`. */
  const serveWith = async (args: string[], env: Record<string, string> = {}) => {
    const run = startProcess(process.execPath, [BIN, "serve", "--dir", path.join(EXAMPLES, "hello"), "--port", "0", ...args], { env });
    const served = run.waitForOutput(/Serving at/).then(
      () => ({ code: "served", stderr: "" }),
      () => new Promise<never>(() => {}),
    );
    const result = await Promise.race([run.done, served]);
    run.kill();
    return result;
  };

  it("refuses to start with --bearer-token \"\"", async () => {
    const result = await serveWith(["--bearer-token", ""]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--bearer-token is empty");
  });

  it("refuses to start with an empty BDK_BEARER_TOKEN", async () => {
    const result = await serveWith([], { BDK_BEARER_TOKEN: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("BDK_BEARER_TOKEN is empty");
  });

  it("refuses a token with blanks, which no header could carry intact", async () => {
    const result = await serveWith(["--bearer-token", "two words"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--bearer-token must be visible ASCII characters without spaces");
  });
});

describe("multi-agent host with anonymous access", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir: EXAMPLES, args: ["--allow-anonymous"] });
    servers.push(server);
  }, 180_000);

  it("mounts each project at /<slug>/v1 and lists them", async () => {
    const index = (await (await fetch(`${server.url}/v1/agents`)).json()) as { agents: { slug: string }[] };
    expect(index.agents.map((agent) => agent.slug)).toEqual(expect.arrayContaining(["hello", "pr-approver"]));
    const info = (await (await fetch(`${server.url}/hello/v1/info`)).json()) as { name: string };
    expect(info.name).toBe("hello");
    const unknown = await fetch(`${server.url}/nobody/v1/info`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
  });

  it("shows every principal's sessions to anonymous callers", async () => {
    const created = await fetch(`${server.url}/hello/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "hi", title: "anon-visible" }),
    });
    expect(created.status).toBe(202);
    const listed = (await (await fetch(`${server.url}/hello/v1/sessions?q=anon-visible`)).json()) as {
      sessions: { principal: { id: string } }[];
    };
    expect(listed.sessions).toHaveLength(1);
    expect(listed.sessions[0].principal.id).toBe("anonymous");
  });
});

describe("--no-playground", () => {
  it("removes the agents index, the home page and the playground but keeps the API", async () => {
    const server = await startServer({ dir: path.join(EXAMPLES, "hello"), args: ["--no-playground"] });
    servers.push(server);
    for (const route of ["/", "/playground", "/v1/agents"]) {
      expect((await fetch(`${server.url}${route}`)).status, route).toBe(404);
    }
    expect((await fetch(`${server.url}/v1/info`)).status).toBe(200);
  }, 180_000);
});
