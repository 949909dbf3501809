import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestFacts } from "../auth/policies.ts";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { errorResponse } from "./respond.ts";
import { handleChannelRequest } from "./channel-routes.ts";

const DESK = `
import { defineChannel, GET, POST } from "@cursor/bdk/channels";
import { z } from "zod";

export default defineChannel<{ customer: string }>({
  state: { customer: "nobody" },
  routes: [
    POST("/ask", {
      description: "Ask a question for a customer.",
      bodySchema: z.object({ customer: z.string(), question: z.string().min(1), token: z.string().optional() }),
      async handler(_request, { body, send, host }) {
        await host.kv.put("ask-handler-ran", true);
        const session = await send(body.question, { continuationToken: body.token, state: body.customer === "keep" ? undefined : { customer: body.customer } });
        const done = await session.waitForCompletion();
        return Response.json({ id: session.id, token: session.continuationToken, done }, { status: 201 });
      },
    }),
    POST("/later", async (_request, { send, waitUntil }) => {
      waitUntil(send("hello later", { title: "Later" }));
      return new Response(null, { status: 202 });
    }),
    GET("/items/:id", {
      querySchema: z.object({ verbose: z.enum(["yes", "no"]) }),
      handler: (_request, { params, query, principal }) => Response.json({ params, query, principal }),
    }),
    GET("/session/:id", async (_request, { params, getSession }) => Response.json({ session: (await getSession(params.id)) ?? null })),
  ],
  events: {
    async "turn.completed"(event, channel, ctx) {
      await ctx.host.kv.put("answer:" + channel.state.customer, { text: event.data.result, session: ctx.session.id });
    },
    "message.received"() {
      throw new Error("boom from a delivery handler");
    },
  },
});
`;

const LOCKED = `
import { bearerAuth, defineChannel, GET } from "@cursor/bdk/channels";
export default defineChannel({ auth: [bearerAuth("t0ken")], routes: [GET("/", (_request, { principal }) => Response.json(principal))] });
`;

const RELAY = `
import { defineChannel, POST } from "@cursor/bdk/channels";
export default defineChannel({
  routes: [
    POST("/as", async (_request, { body, send }) => Response.json({ id: (await send("relayed", { auth: body.auth })).id })),
    POST("/receive", async (_request, { body, receive }) => Response.json({ id: (await receive("relay", { message: "handed over", auth: body.auth })).id })),
  ],
});
`;

let opened: OpenedAgent;
const loopback: RequestFacts = { peer: "127.0.0.1", forwarded: false, authorization: null };

async function call(method: string, path: string, options: { body?: unknown; facts?: Partial<RequestFacts> } = {}): Promise<Response> {
  const request = new Request(`http://127.0.0.1/v1/channels/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  try {
    return await handleChannelRequest({
      request,
      path: path.split("?")[0],
      opened,
      policies: [{ kind: "localDevStrict" }],
      facts: { ...loopback, ...options.facts },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

beforeAll(async () => {
  const dir = tempProject({
    "package.json": '{ "name": "desk", "type": "module" }',
    "bot/instructions.md": "You answer customer questions.",
    "bot/channels/desk.ts": DESK,
    "bot/channels/locked.ts": LOCKED,
    "bot/channels/relay.ts": RELAY,
  });
  opened = await openAgent(dir, { env: { BDK_MODEL: "scripted" } });
});

afterAll(async () => {
  await opened.close();
  removeTempProjects();
});

const kv = (key: string) => opened.store.kv.get(opened.agent.name, key);

describe("custom channel routes", () => {
  it("a body failing the schema is a 400 naming the field, and the handler does not run", async () => {
    const response = await call("POST", "desk/ask", { body: { customer: "ada" } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ok: boolean; error: string; message: string };
    expect(body).toMatchObject({ ok: false, error: "invalid_request" });
    expect(body.message).toContain("question");
    expect(await kv("ask-handler-ran")).toBeUndefined();
  });

  it("send starts a chat session on the channel; the same token continues it; delivery events see the state", async () => {
    const first = await call("POST", "desk/ask", { body: { customer: "ada", question: "Where is my order?" } });
    expect(first.status).toBe(201);
    const started = (await first.json()) as { id: string; token: string; done: { status: string; result: string } };
    expect(started.done.status).toBe("finished");
    expect(started.done.result).toContain("scripted model");
    const session = (await opened.store.sessions.get(started.id))!;
    expect([session.channel, session.mode, session.continuationToken]).toEqual(["desk", "chat", started.token]);

    const again = (await (await call("POST", "desk/ask", { body: { customer: "keep", question: "Any news?", token: started.token } })).json()) as {
      id: string;
    };
    expect(again.id).toBe(started.id);
    const received = (await opened.runtime
      .reader.events(started.id, session.principal))
      .filter((event: AnyBdkEvent) => event.type === "message.received");
    expect(received).toHaveLength(2);

    await opened.automation.channels.delivery.settled();
    expect(await kv("answer:ada")).toMatchObject({ session: started.id });
    // The throwing message.received handler was logged and changed nothing.
    expect((await opened.store.logs.list({ limit: 100 })).some((row) => row.msg.includes("boom from a delivery handler"))).toBe(true);
  });

  it("a new session without state gets the channel's default state", async () => {
    const response = await call("POST", "desk/later");
    expect(response.status).toBe(202);
    const page = await opened.runtime.listSessions({});
    const later = page.sessions.find((session) => session.title === "Later")!;
    await opened.runtime.idle(later.id);
    await opened.automation.channels.delivery.settled();
    expect(later.channelState).toEqual({ customer: "nobody" });
    expect(await kv("answer:nobody")).toMatchObject({ session: later.id });
  });

  it("path params and a validated query reach the handler with the caller's principal", async () => {
    const ok = await call("GET", "desk/items/42?verbose=yes");
    expect(await ok.json()).toEqual({ params: { id: "42" }, query: { verbose: "yes" }, principal: { type: "user", id: "local" } });
    const bad = await call("GET", "desk/items/42?verbose=maybe");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("verbose");
  });

  it("getSession shows sessions of this channel only", async () => {
    const other = await opened.runtime.startSession({ message: "hi", principal: { type: "user", id: "local" } });
    const response = await call("GET", `desk/session/${other.sessionId}`);
    expect(await response.json()).toEqual({ session: null });
    await opened.runtime.idle(other.sessionId);
  });

  it("the agent's policies apply by default; a channel's own auth array replaces them", async () => {
    expect((await call("GET", "desk/items/1?verbose=no", { facts: { peer: "10.0.0.8" } })).status).toBe(403);
    expect((await call("GET", "locked")).status).toBe(401);
    const admitted = await call("GET", "locked", { facts: { peer: "10.0.0.8", authorization: "Bearer t0ken" } });
    expect(admitted.status).toBe(200);
    expect(((await admitted.json()) as { type: string }).type).toBe("service");
  });

  it("unknown channels and routes are 404 naming what exists", async () => {
    const channel = await call("GET", "nope/x");
    expect(channel.status).toBe(404);
    expect(((await channel.json()) as { message: string }).message).toContain("desk");
    const route = await call("GET", "desk/ask");
    expect(route.status).toBe(404);
    expect(((await route.json()) as { message: string }).message).toContain("POST /ask");
  });
});

describe("principals handed to send and receive", () => {
  it("a malformed auth is refused naming the field, and no session starts", async () => {
    const before = (await opened.runtime.listSessions({})).sessions.length;
    const cases = [
      ["relay/as", { type: "admin", id: "ops" }, 'send(): auth.type: Invalid option: expected one of "user"|"service"|"app"'],
      ["relay/as", { type: "service" }, "send(): auth.id: Invalid input: expected string, received undefined"],
      ["relay/receive", "user:ops", "receive(): auth: Invalid input: expected object, received string"],
    ] as const;
    for (const [route, auth, message] of cases) {
      const response = await call("POST", route, { body: { auth } });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe("invalid_request");
      expect(body.message).toContain(message);
    }
    expect((await opened.runtime.listSessions({})).sessions.length).toBe(before);
  });

  it("a well-formed auth owns the session (extra fields dropped)", async () => {
    const response = await call("POST", "relay/as", { body: { auth: { type: "service", id: "ops", note: "x" } } });
    const { id } = (await response.json()) as { id: string };
    expect((await opened.store.sessions.get(id))!.principal).toEqual({ type: "service", id: "ops" });
    await opened.runtime.idle(id);
  });
});
