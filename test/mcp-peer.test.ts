/**
 * A peer-agent connection (`agent: "<slug>"`) on a multi-agent host: the
 * caller reaches the peer's own MCP server (`ask`, `check`, `call_tool`) in
 * process, through `ctx.host.mcp` and as model tools.
 */
import { expect, it } from "vitest";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { serveProject } from "./support/served-project.ts";

const served = serveProject({
    "books/bot/instructions.md": "You keep the books.",
    "books/bot/tools/vat_rate.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "The VAT rate of a country.",
  inputSchema: z.object({ country: z.string() }),
  async execute({ country }) {
    return { country, rate: country === "PT" ? 23 : 20 };
  },
});`,
    "front/bot/instructions.md": "You answer customers; ask the books agent about money.",
    "front/bot/mcp-connections/books.ts": `import { defineConnection } from "@cursor/bdk/connections";
export default defineConnection({ agent: "books", description: "The bookkeeping agent" });`,
    "front/bot/mcp-connections/ghost.ts": `import { defineConnection } from "@cursor/bdk/connections";
export default defineConnection({ agent: "ghost" });`,
    "front/bot/tools/ask_books.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Ask the books agent.",
  inputSchema: z.object({ message: z.string() }),
  async execute({ message }, ctx) {
    return ctx.host.mcp.callTool("books", "ask", { message, waitSeconds: 30 });
  },
});`,
});

const front = () => served.handle.agents.find((agent) => agent.slug === "front")!.opened;
const books = () => served.handle.agents.find((agent) => agent.slug === "books")!.opened;

it("host code asks the peer: a session on the peer, owned by the calling agent, with its reply", async () => {
  const called = await served.handle.callTool("ask_books", { message: "hello" }, { slug: "front" });
  expect(called.isError).toBe(false);
  const answer = (called.result as { structuredContent: { status: string; sessionId: string; reply: string } }).structuredContent;
  expect(answer.status).toBe("completed");
  expect(answer.reply).toContain("books");
  const session = await books().store.sessions.get(answer.sessionId);
  expect(session).toMatchObject({ channel: "mcp", principal: { type: "service", id: "agent:front" } });
});

it("the model calls the peer's server tools through <connection>__call_tool", async () => {
  const principal = { type: "user" as const, id: "local" };
  const started = await front().runtime.startSession({
    message: 'Use books__call_tool with {"name":"vat_rate","input":{"country":"PT"}}',
    principal,
  });
  await started.done;
  const events = await front().runtime.reader.events(started.sessionId, principal) as AnyBdkEvent[];
  const result = events.find((event) => event.type === "action.result");
  expect(result?.data).toMatchObject({ name: "books__call_tool", isError: false });
  expect(JSON.stringify(result?.data)).toContain('\\"rate\\":23');
});

it("a connection to an agent that is not mounted fails with a message naming the mounted ones", async () => {
  const result = await front().mcp.callTool("ghost", "ask", { message: "hello" });
  expect(result.isError).toBe(true);
  const text = JSON.stringify(result.content);
  expect(text).toContain('peer agent \\"ghost\\" is not mounted on this host');
  expect(text).toContain("books, front");
});
