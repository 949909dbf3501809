/** A served project with a read tool, and the calls the session-fork tests share. */
import type { ServedProject } from "./served-project.ts";

export const forkProjectFiles = {
  "bot/instructions.md": "You quote prices.",
  "bot/tools/price.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Price of a product.",
  inputSchema: z.object({ sku: z.string() }),
  effect: "read",
  async execute({ sku }) { return { sku, price: 42 }; },
});`,
};
export const ALPHA = "alpha-secret";
export const BETA = "beta-secret";

/** A call as a bearer principal (`token`) or as the loopback caller (undefined). */
export const as = (served: ServedProject, token: string | undefined, route: string, init: RequestInit = {}) =>
  served.call(route, { ...init, headers: { ...(init.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
export const post = (body: unknown): RequestInit => ({ method: "POST", body: JSON.stringify(body) });

/** Waits until the session has no turn running or queued. */
export async function settled(served: ServedProject, token: string | undefined, sessionId: string) {
  for (let tries = 0; tries < 400; tries++) {
    const answer = (await (await as(served, token, `/v1/session/${sessionId}`)).json()) as { session?: { status: string } };
    if (!answer.session) throw new Error(`GET session ${sessionId}: ${JSON.stringify(answer)}`);
    const { session } = answer;
    if (session.status === "waiting") return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`session ${sessionId} never settled`);
}

/** A session a bearer client started with curl, settled; and the index of its message. */
export async function curlSession(served: ServedProject) {
  const created = (await (await as(served, ALPHA, "/v1/session", post({ message: 'run price {"sku":"A1"}' }))).json()) as {
    sessionId: string;
  };
  await settled(served, ALPHA, created.sessionId);
  const events = (await (await as(served, ALPHA, `/v1/session/${created.sessionId}/events`)).text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; index: number });
  return {
    sessionId: created.sessionId,
    messageIndex: events.find((event) => event.type === "message.received")!.index,
    answerIndex: events.findLast((event) => event.type === "message.completed")!.index,
  };
}

