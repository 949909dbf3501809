/**
 * Crash storm: rounds of `kill -9` of a real `bdk serve` while its sessions
 * are mid-turn and follow-ups coalesce into (or preempt) the busy ones, all
 * on one state root. After every restart it checks, over the HTTP API:
 * every message that got a 202 is in its session's event log exactly once
 * (alone, or joined with the ones it was coalesced with), no message is
 * there twice, indexes are gap-free, and every turn that recorded its
 * message has ended. A request whose answer the crash swallowed is sent
 * again after the restart with its Idempotency-Key and the token it had.
 *
 * Run: npx tsx bench/crash-storm/run.ts [rounds=50]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { removeTempProjects, tempProject } from "../../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { freePort, readNdjson, type RunningServer, startServer } from "../../test/support/bdk-server.ts";

const ROUNDS = Number(process.argv[2] ?? 50);
const SESSIONS = 6;
/** Each model step takes this long, so a kill finds turns running and follow-ups waiting. */
const STEP_DELAY_MS = "300";

interface Session {
  id: string;
  token: string;
}

/** A follow-up whose answer was lost in a crash: retried after the restart. */
interface Unanswered {
  session: Session;
  message: string;
  token: string;
  admission: string;
}

const dir = tempProject({
  "package.json": '{ "name": "storm", "type": "module" }',
  "bot/instructions.md": "You answer briefly.",
});
const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-crash-storm-"));
const port = await freePort();

const sessions: Session[] = [];
/** Messages answered 202, by session. */
const acknowledged = new Map<string, Set<string>>();
let unanswered: Unanswered[] = [];
let sent = 0;
let eventsChecked = 0;
const anomalies: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function acknowledge(session: Session, message: string): void {
  let set = acknowledged.get(session.id);
  if (!set) acknowledged.set(session.id, (set = new Set()));
  set.add(message);
}

async function followUp(server: RunningServer, session: Session, message: string, token: string, admission: string) {
  const response = await fetch(`${server.url}/v1/session/${session.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": message.replaceAll(" ", "-") },
    body: JSON.stringify({ message, continuationToken: token, admission }),
  });
  return { status: response.status, body: (await response.json()) as { continuationToken?: string } };
}

/** Follow-ups into one session until the kill: mostly coalescing into the running turn, sometimes preempting it. */
async function storm(server: RunningServer, session: Session, round: number, killed: () => boolean): Promise<void> {
  for (let n = 0; !killed(); n++) {
    const message = `storm r${round} ${session.id.slice(-6)} #${n}`;
    const token = session.token;
    const admission = Math.random() < 0.75 ? "coalesce" : "preempt";
    sent++;
    try {
      const answer = await followUp(server, session, message, token, admission);
      if (answer.status === 202) {
        acknowledge(session, message);
        session.token = answer.body.continuationToken!;
      } else if (answer.status === 409) {
        session.token = await currentToken(server, session);
      } else {
        anomalies.push(`round ${round}: follow-up answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
    } catch {
      // The server died with the request in flight: whether it was stored is for the retry to find out.
      unanswered.push({ session, message, token, admission });
      return;
    }
    await sleep(20 + Math.random() * 100);
  }
}

async function currentToken(server: RunningServer, session: Session): Promise<string> {
  const body = (await (await fetch(`${server.url}/v1/session/${session.id}/token`)).json()) as { continuationToken: string };
  return body.continuationToken;
}

/** Sends again, with the same key and old token, what the crash left unanswered. */
async function retryUnanswered(server: RunningServer): Promise<void> {
  for (const { session, message, token, admission } of unanswered.splice(0)) {
    const answer = await followUp(server, session, message, token, admission);
    // 202: stored before the crash (the first answer again) or accepted now. 409: never stored, and the token moved on.
    if (answer.status === 202) acknowledge(session, message);
    else if (answer.status !== 409) anomalies.push(`retry of ${JSON.stringify(message)} answered ${answer.status}`);
  }
}

/** Checks every session's log as the restarted server shows it, before any new traffic. */
async function check(server: RunningServer, round: number): Promise<void> {
  for (const session of sessions) {
    const events = await readNdjson<AnyBdkEvent>(await fetch(`${server.url}/v1/session/${session.id}/events`));
    eventsChecked += events.length;
    const where = `round ${round}, session ${session.id}`;
    events.forEach((event, i) => {
      if (event.index !== i) anomalies.push(`${where}: index ${event.index} at position ${i}`);
    });
    const seen = new Map<string, number>();
    const ended = new Set<string>();
    for (const event of events) {
      if (event.type === "message.received") {
        for (const part of event.data.message.split("\n\n")) seen.set(part, (seen.get(part) ?? 0) + 1);
      }
      if ((event.type === "turn.completed" || event.type === "turn.failed") && event.turnId) ended.add(event.turnId);
    }
    for (const message of acknowledged.get(session.id) ?? []) {
      const count = seen.get(message) ?? 0;
      if (count !== 1) anomalies.push(`${where}: acknowledged ${JSON.stringify(message)} is in the log ${count} times`);
    }
    for (const [message, count] of seen) if (count > 1) anomalies.push(`${where}: ${JSON.stringify(message)} is in the log ${count} times`);
    for (const event of events) {
      if (event.type === "message.received" && event.turnId && !ended.has(event.turnId)) {
        anomalies.push(`${where}: turn ${event.turnId} recorded its message but never ended`);
      }
    }
  }
}

async function serve(): Promise<RunningServer> {
  return startServer({ dir, stateRoot, port, env: { BDK_SCRIPTED_DELAY_MS: STEP_DELAY_MS } });
}

const started = performance.now();
let server = await serve();
for (let i = 0; i < SESSIONS; i++) {
  const created = (await (
    await fetch(`${server.url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: `storm session ${i}` }),
    })
  ).json()) as { sessionId: string; continuationToken: string };
  sessions.push({ id: created.sessionId, token: created.continuationToken });
  acknowledge(sessions[i], `storm session ${i}`);
}

for (let round = 1; round <= ROUNDS; round++) {
  let killed = false;
  const storms = sessions.map((session) => storm(server, session, round, () => killed));
  await sleep(400 + Math.random() * 1200);
  killed = true;
  await server.stop("SIGKILL");
  await Promise.all(storms);

  server = await serve();
  await check(server, round);
  await retryUnanswered(server);
  for (const session of sessions) session.token = await currentToken(server, session);
}
// The retries of the last round are checked too.
await server.stop("SIGKILL");
server = await serve();
await check(server, ROUNDS + 1);
await server.stop();
removeTempProjects();

const total = [...acknowledged.values()].reduce((sum, set) => sum + set.size, 0);
console.log(
  `crash storm: ${ROUNDS} rounds of kill -9 mid-turn, ${SESSIONS} busy sessions, ${sent} follow-ups sent, ${total} messages acknowledged (202), ` +
    `${eventsChecked} events checked, ${anomalies.length} anomalies (target 0), ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const anomaly of anomalies.slice(0, 20)) console.log(`  anomaly: ${anomaly}`);
