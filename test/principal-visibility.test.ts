/**
 * Lists match a principal by type and id: a bearer caller (`service:bearer-<hash>`)
 * never sees the sessions or pending approvals of `user:bearer-<hash>`, a
 * different principal that happens to share the id.
 */
import { describe, expect, it } from "vitest";
import { bearerPrincipal } from "../server/auth/policies.ts";
import { serveProject } from "./support/served-project.ts";

const TOKEN = "visibility-secret";
const sharedId = bearerPrincipal(TOKEN).id;

const served = serveProject(
  {
    "bot/instructions.md": "You deploy.",
    "bot/tools/deploy.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Deploy an environment.",
  inputSchema: z.object({ env: z.string() }),
  effect: "write",
  needsApproval: true,
  async execute({ env }) { return { deployed: env }; },
});`,
    "bot/channels/as-user.ts": `import { defineChannel, POST } from "@cursor/bdk/channels";
import { z } from "zod";
export default defineChannel({
  routes: [
    POST("/start", {
      bodySchema: z.object({ id: z.string(), message: z.string() }),
      async handler(_request, { body, send }) {
        const session = await send(body.message, { auth: { type: "user", id: body.id } });
        return Response.json({ sessionId: session.id });
      },
    }),
  ],
});`,
  },
  { authToken: TOKEN },
);

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries === 400) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("lists of sessions and approvals", () => {
  it("show a caller only what its own principal (type and id) owns", async () => {
    const started = await served.call("/v1/channels/as-user/start", {
      method: "POST",
      body: JSON.stringify({ id: sharedId, message: 'run deploy {"env":"production"}' }),
    });
    expect(started.status).toBe(200);
    const { sessionId } = (await started.json()) as { sessionId: string };
    const own = await served.call("/v1/session", { method: "POST", bearer: true, body: JSON.stringify({ message: "hello" }) });
    const ownId = ((await own.json()) as { sessionId: string }).sessionId;

    // The loopback caller (user:local) is not the owner either; wait for the approval through the store.
    const store = served.handle.agents[0].opened.store;
    await until(async () => (await store.approvals.listPending({ sessionId })).length === 1);

    const listed = (await (await served.call("/v1/sessions", { bearer: true })).json()) as { sessions: { id: string; principal: unknown }[] };
    expect(listed.sessions.map((session) => session.id)).toEqual([ownId]);
    const approvals = (await (await served.call("/v1/approvals", { bearer: true })).json()) as { approvals: unknown[] };
    expect(approvals.approvals).toEqual([]);
    const session = await served.call(`/v1/session/${sessionId}`, { bearer: true });
    expect(session.status).toBe(403);
  });
});
