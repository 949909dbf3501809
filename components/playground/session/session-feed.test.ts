import { createServer, type Server, type ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApi } from "../../api/api.ts";
import { SessionFeed } from "./session-feed.ts";

// The feed repaints once per animation frame; outside a browser a frame is the next macrotask.
globalThis.requestAnimationFrame ??= (callback: FrameRequestCallback) => setTimeout(() => callback(0), 0) as unknown as number;
globalThis.cancelAnimationFrame ??= (handle: number) => clearTimeout(handle);

const event = (index: number, type: string, data: object = {}) =>
  `${JSON.stringify({ type, index, sessionId: "ses_1", turnId: "turn_1", at: "2026-03-01T12:00:00.000Z", data })}\n`;
const keepalive = (fields: object) =>
  `${JSON.stringify({ type: "stream.keepalive", at: "2026-03-01T12:00:15.000Z", turnId: "turn_1", turnStatus: "running", ...fields })}\n`;

/** A server whose `/stream` the test writes to line by line. */
let server: Server;
let base: string;
let stream: Promise<ServerResponse>;

beforeEach(async () => {
  let opened: (res: ServerResponse) => void;
  stream = new Promise((resolve) => (opened = resolve));
  server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    if (req.url?.includes("/events")) res.end(event(0, "message.received", { message: "pay" }));
    else opened(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("the session feed's keepalives", () => {
  it("keeps the turn's owner and wait from a keepalive, not as an event, and drops them as the turn moves on", async () => {
    const feed = new SessionFeed(createApi(base), "ses_1");
    feed.start();
    const res = await stream;
    res.write(keepalive({ owner: "web-2:4711", waiting: { for: "approval", since: "2026-03-01T12:00:01.000Z" } }));
    await until(() => feed.getSnapshot().turn !== undefined);
    expect(feed.getSnapshot().turn).toMatchObject({ owner: "web-2:4711", waiting: { for: "approval" } });
    expect(feed.getSnapshot().events.map((e) => e.index)).toEqual([0]);

    res.write(event(1, "action.approval_resolved", { approvalId: "apr_1", toolCallId: "call_1", approved: true, by: "u1" }));
    await until(() => feed.getSnapshot().events.length === 2);
    expect(feed.getSnapshot().turn).toEqual(expect.objectContaining({ owner: "web-2:4711", waiting: undefined }));

    res.write(event(2, "turn.completed", { result: "paid", usage: {}, durationMs: 5 }));
    await until(() => feed.getSnapshot().events.length === 3);
    expect(feed.getSnapshot().turn).toBeUndefined();
    feed.dispose();
  });
});
