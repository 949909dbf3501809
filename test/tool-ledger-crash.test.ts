/**
 * The side-effect ledger across a crash: a real `bdk serve` killed with -9
 * while a write tool runs, restarted on the same state root. The call is
 * reported in doubt (an event, the approvals inbox) and never run again.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
import { type ChargeBot, chargeBot } from "./support/charge-bot.ts";

let bot: ChargeBot;
const servers: RunningServer[] = [];

beforeAll(() => {
  bot = chargeBot("ledger-bot");
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  removeTempProjects();
});

async function serve(options: { stateRoot?: string; port?: number } = {}): Promise<RunningServer> {
  const server = await startServer({ dir: bot.dir, ...options, env: { CHARGE_LOG: bot.chargeLog } });
  servers.push(server);
  return server;
}

async function post(server: RunningServer, route: string, body: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, string>;
}

const until = async (server: RunningServer, sessionId: string, type: string, startIndex = 0) =>
  readNdjson<AnyBdkEvent>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), (event) => event.type === type);

it("reports a write call cut off by kill -9 in doubt, lists it in the inbox, and never runs it again", async () => {
  const first = await serve();
  const created = await post(first, "/v1/session", { message: 'charge_card {"amount": 42}' });
  const requested = (await until(first, created.sessionId, "actions.requested")).at(-1)!;
  const [call] = (requested.data as { actions: { toolCallId: string }[] }).actions;
  await bot.chargeTaken();
  await first.stop("SIGKILL");

  const second = await serve({ stateRoot: first.stateRoot, port: first.port });
  const all = await until(second, created.sessionId, "session.waiting");
  const ofTurn = all.filter((event) => event.turnId === created.turnId).map((event) => event.type);
  expect(ofTurn.slice(ofTurn.indexOf("actions.requested"))).toEqual(["actions.requested", "action.in_doubt", "turn.failed"]);
  const inDoubt = all.find((event) => event.type === "action.in_doubt")!;
  expect(inDoubt.data).toMatchObject({ toolCallId: call.toolCallId, name: "charge_card", input: { amount: 42 }, effect: "write" });
  expect(all.find((event) => event.type === "turn.failed")?.data).toMatchObject({ status: "interrupted" });

  const inbox = (await (await fetch(`${second.url}/v1/approvals`)).json()) as { approvals: unknown[]; inDoubt: Record<string, unknown>[] };
  expect(inbox.approvals).toEqual([]);
  expect(inbox.inDoubt).toEqual([
    expect.objectContaining({ sessionId: created.sessionId, turnId: created.turnId, toolCallId: call.toolCallId, name: "charge_card", input: { amount: 42 } }),
  ]);

  // The session goes on; the model is told the call is in doubt, and nothing charges twice.
  const next = await post(second, `/v1/session/${created.sessionId}`, { message: "did it go through?", continuationToken: created.continuationToken });
  expect(next.ok).toBe(true);
  const after = await until(second, created.sessionId, "session.waiting", all.length);
  expect(after.filter((event) => event.type === "turn.completed")).toHaveLength(1);
  expect(bot.charges()).toBe("charged 42\n");

  // Recovery ran once: a second restart records nothing more for that turn.
  await second.stop("SIGKILL");
  const third = await serve({ stateRoot: first.stateRoot, port: first.port });
  const stored = readNdjson<AnyBdkEvent>(await fetch(`${third.url}/v1/session/${created.sessionId}/events`));
  expect((await stored).filter((event) => event.type === "action.in_doubt")).toHaveLength(1);
  await third.stop();
  const db = new Database(path.join(first.stateRoot, "bdk.sqlite"), { readonly: true });
  try {
    expect(db.prepare("SELECT status, effect FROM tool_calls WHERE tool_call_id = ?").all(call.toolCallId)).toEqual([{ status: "in_doubt", effect: "write" }]);
  } finally {
    db.close();
  }
  expect(bot.charges()).toBe("charged 42\n");
}, 240_000);
