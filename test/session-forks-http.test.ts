/**
 * Continuing and forking sessions over HTTP on a served project (loopback,
 * scripted model): dev on loopback continues and forks any session the
 * playground lists (here one a bearer client started with curl) through the
 * owner's token route; a fork runs with a tool stub and diffs against its
 * source; other principals get 403 (loopback without --dev: session-forks-auth).
 */
import { describe, expect, it } from "vitest";
import { ALPHA, as, BETA, curlSession, forkProjectFiles, post, settled } from "./support/fork-project.ts";
import { serveProject } from "./support/served-project.ts";

const dev = serveProject(forkProjectFiles, { dev: true, authToken: [ALPHA, BETA] });

describe("bdk serve --dev on loopback", () => {
  it("continues a session a bearer client started, with the owner's token fetched through the token route", async () => {
    const { sessionId } = await curlSession(dev);
    const token = (await (await as(dev, undefined, `/v1/session/${sessionId}/token`)).json()) as { continuationToken: string };
    const reply = await as(dev, undefined, `/v1/session/${sessionId}`, post({ message: "thanks", continuationToken: token.continuationToken }));
    expect(reply.status).toBe(202);
    await settled(dev, ALPHA, sessionId);
    const events = await (await as(dev, ALPHA, `/v1/session/${sessionId}/events`)).text();
    expect(events).toContain('"message":"thanks"');
  });

  it("forks a session at its message with a tool stub, lists the fork with its parent, and diffs the two runs", async () => {
    const { sessionId, messageIndex } = await curlSession(dev);
    const forked = await as(
      dev,
      undefined,
      `/v1/session/${sessionId}/fork`,
      post({ beforeIndex: messageIndex, overrides: { toolResults: { price: { output: { sku: "A1", price: 7 } } } } }),
    );
    expect(forked.status).toBe(202);
    const fork = (await forked.json()) as { sessionId: string; parentId: string; continuationToken: string };
    expect(fork.parentId).toBe(sessionId);
    await settled(dev, undefined, fork.sessionId);

    const detail = (await (await as(dev, undefined, `/v1/session/${fork.sessionId}`)).json()) as { session: Record<string, unknown> };
    expect(detail.session).toMatchObject({ parentId: sessionId, forkedAt: messageIndex, overrides: { toolResults: { price: { output: { sku: "A1", price: 7 } } } } });
    const listed = (await (await as(dev, undefined, "/v1/sessions")).json()) as { sessions: { id: string; parentId?: string; forkedAt?: number }[] };
    expect(listed.sessions.find((session) => session.id === fork.sessionId)).toMatchObject({ parentId: sessionId, forkedAt: messageIndex });

    const diff = (await (await as(dev, undefined, `/v1/session/${sessionId}/diff/${fork.sessionId}`)).json()) as {
      identical: boolean;
      turns: { messageChanged: boolean; replyChanged: boolean; toolCallsChanged: boolean; before: { toolCalls: { output: unknown }[] }; after: { toolCalls: { output: unknown }[]; reply: string } }[];
      before: { from: number };
    };
    expect(diff.before.from).toBe(messageIndex);
    expect(diff.identical).toBe(false);
    expect(diff.turns).toHaveLength(1);
    expect(diff.turns[0]).toMatchObject({ messageChanged: false, replyChanged: true, toolCallsChanged: true });
    expect(diff.turns[0].before.toolCalls[0].output).toEqual({ sku: "A1", price: 42 });
    expect(diff.turns[0].after.toolCalls[0].output).toEqual({ sku: "A1", price: 7 });
    expect(diff.turns[0].after.reply).toContain("7");

    // Edit and resend: a fork is a session like any other, and its token continues it.
    const edited = await as(dev, undefined, `/v1/session/${fork.sessionId}/fork`, post({ beforeIndex: messageIndex, message: "hello" }));
    expect(edited.status).toBe(202);
    const followUp = await as(dev, undefined, `/v1/session/${fork.sessionId}`, post({ message: "more", continuationToken: fork.continuationToken }));
    expect(followUp.status).toBe(202);
  });

  it("forks right after the step that asked for a tool: the fork runs that call with its stub, and the diff compares the cut turn", async () => {
    const { sessionId, messageIndex } = await curlSession(dev);
    const sourceEvents = (await (await as(dev, undefined, `/v1/session/${sessionId}/events`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; index: number });
    const afterIndex = sourceEvents.find((event) => event.type === "actions.requested")!.index;
    const stub = { toolResults: { price: { output: { sku: "A1", price: 7 } } } };
    const forked = await as(dev, undefined, `/v1/session/${sessionId}/fork`, post({ afterIndex, overrides: stub }));
    expect(forked.status).toBe(202);
    const fork = (await forked.json()) as { sessionId: string; turnId: string };
    await settled(dev, undefined, fork.sessionId);

    const events = (await (await as(dev, undefined, `/v1/session/${fork.sessionId}/events`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; index: number; turnId?: string; data: Record<string, unknown> });
    expect(events[0].data).toMatchObject({ parentId: sessionId, forkedAt: messageIndex, cutAfter: afterIndex });
    expect(events.filter((event) => event.type === "message.received")).toHaveLength(1);
    expect(events.find((event) => event.type === "action.result")).toMatchObject({ index: afterIndex + 1, turnId: fork.turnId, data: { output: { sku: "A1", price: 7 }, stubbed: true } });
    expect(events.findLast((event) => event.type === "turn.completed")?.turnId).toBe(fork.turnId);

    const diff = (await (await as(dev, undefined, `/v1/session/${sessionId}/diff/${fork.sessionId}`)).json()) as {
      before: { from: number };
      turns: { messageChanged: boolean; toolCallsChanged: boolean; after: { toolCalls: { output: unknown }[]; reply: string } }[];
    };
    expect(diff.before.from).toBe(messageIndex);
    expect(diff.turns).toHaveLength(1);
    expect(diff.turns[0]).toMatchObject({ messageChanged: false, toolCallsChanged: true });
    expect(diff.turns[0].after.toolCalls[0].output).toEqual({ sku: "A1", price: 7 });
    expect(diff.turns[0].after.reply).toContain("7");
  });

  it("stubs one call of a tool: the fork's second price call gets the stub, its first and third run the tool", async () => {
    const { sessionId, messageIndex } = await curlSession(dev);
    const stub = { name: "price", call: 2, output: { sku: "STUB", price: 7 } };
    const forked = await as(dev, undefined, `/v1/session/${sessionId}/fork`, post({ beforeIndex: messageIndex, overrides: { toolCallResults: [stub] } }));
    expect(forked.status).toBe(202);
    const fork = (await forked.json()) as { sessionId: string; continuationToken: string };
    await settled(dev, undefined, fork.sessionId);
    let token = fork.continuationToken;
    for (const sku of ["B2", "C3"]) {
      const reply = await as(dev, undefined, `/v1/session/${fork.sessionId}`, post({ message: `run price {"sku":"${sku}"}`, continuationToken: token }));
      expect(reply.status).toBe(202);
      token = ((await reply.json()) as { continuationToken: string }).continuationToken;
      await settled(dev, undefined, fork.sessionId);
    }
    const results = (await (await as(dev, undefined, `/v1/session/${fork.sessionId}/events`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> })
      .filter((event) => event.type === "action.result")
      .map((event) => ({ output: event.data.output, stubbed: event.data.stubbed }));
    expect(results).toEqual([
      { output: { sku: "A1", price: 42 }, stubbed: undefined },
      { output: { sku: "STUB", price: 7 }, stubbed: true },
      { output: { sku: "C3", price: 42 }, stubbed: undefined },
    ]);
    const detail = (await (await as(dev, undefined, `/v1/session/${fork.sessionId}`)).json()) as { session: Record<string, unknown> };
    expect(detail.session).toMatchObject({ overrides: { toolCallResults: [stub] } });

    // A call before the cut is inherited with its result: stubbing it is refused, naming the fork's first call.
    const secondMessage = (await (await as(dev, undefined, `/v1/session/${fork.sessionId}/events`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; index: number })
      .filter((event) => event.type === "message.received")[1].index;
    const inherited = await as(dev, undefined, `/v1/session/${fork.sessionId}/fork`, post({ beforeIndex: secondMessage, overrides: { toolCallResults: [{ ...stub, call: 1 }] } }));
    expect(inherited.status).toBe(400);
    expect(((await inherited.json()) as { message: string }).message).toBe(
      "overrides.toolCallResults[0]: call 1 of price is before the fork point, so the fork inherits its result; the fork's first call of price is call 2.",
    );
  });

  it("answers 403 to another bearer principal on the token, fork and diff routes", async () => {
    const { sessionId, messageIndex } = await curlSession(dev);
    for (const [route, init] of [
      [`/v1/session/${sessionId}/token`, {}],
      [`/v1/session/${sessionId}/fork`, post({ beforeIndex: messageIndex })],
      [`/v1/session/${sessionId}/diff/${sessionId}`, {}],
    ] as const) {
      const response = await as(dev, BETA, route, init);
      expect(response.status, route).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe("forbidden");
    }
  });

  it("names what is wrong with a fork request", async () => {
    const { sessionId, answerIndex } = await curlSession(dev);
    const cases: [unknown, RegExp][] = [
      [{ beforeIndex: "1" }, /beforeIndex/],
      [{}, /exactly one of beforeIndex .* and afterIndex/],
      [{ beforeIndex: 1, afterIndex: 2 }, /exactly one of beforeIndex .* and afterIndex/],
      [{ afterIndex: 0 }, /afterIndex 0 is not an event inside a turn/],
      [{ afterIndex: answerIndex }, new RegExp(`afterIndex ${answerIndex} comes after the final answer of its turn`)],
      [{ afterIndex: answerIndex + 1 }, new RegExp(`afterIndex ${answerIndex + 1} comes after the final answer of its turn`)],
      [{ beforeIndex: 0 }, /beforeIndex 0 is not a user message/],
      [{ beforeIndex: 1, overrides: { toolResults: { nope: { output: 1 } } } }, /no tool named "nope"/],
      [{ beforeIndex: 1, overrides: { temperature: 2 } }, /temperature/],
      [{ beforeIndex: 1, overrides: { toolCallResults: [{ name: "nope", call: 1, output: 1 }] } }, /overrides.toolCallResults: no tool named "nope"/],
      [{ beforeIndex: 1, overrides: { toolCallResults: [{ name: "price", call: 0, output: 1 }] } }, /call/],
      [
        { beforeIndex: 1, overrides: { toolCallResults: [{ name: "price", call: 1, output: 1 }, { name: "price", call: 1, output: 2 }] } },
        /overrides.toolCallResults\[1\]: call 1 of price is stubbed twice/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await as(dev, undefined, `/v1/session/${sessionId}/fork`, post(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(message);
    }
    const missing = await as(dev, undefined, `/v1/session/ses_nope/fork`, post({ beforeIndex: 1 }));
    expect(missing.status).toBe(404);
  });
});
