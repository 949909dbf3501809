// The Mastra peers: one agent on Mastra's Hono server adapter, answering with
// Mastra's own mock model (AI SDK v5 MockLanguageModelV2, no delay). Copied
// into bench/.work/peers/mastra (where its packages are installed) and run
// there with Node 24:
//
//   node mastra-server.mjs PORT            stateless: no Memory, a turn keeps nothing
//   node mastra-server.mjs PORT STORE.db   the agent with Mastra's Memory on its
//                                          default durable store, LibSQLStore on that file
import { serve } from "@hono/node-server";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { createMockModel } from "@mastra/core/test-utils/llm-mock";
import { MastraServer } from "@mastra/hono";
import { LibSQLStore } from "@mastra/libsql";
import { Memory } from "@mastra/memory";
import { Hono } from "hono";

const [port, storeFile] = process.argv.slice(2);
const storage = storeFile ? new LibSQLStore({ id: "bench", url: `file:${storeFile}` }) : undefined;
const agent = new Agent({
  id: "bench",
  name: "bench",
  instructions: "You are a benchmark agent.",
  model: createMockModel({ mockText: "Hello from the mock model.", version: "v2" }),
  ...(storage ? { memory: new Memory({ storage }) } : {}),
});
const mastra = new Mastra({ agents: { bench: agent }, logger: false, ...(storage ? { storage } : {}) });
const app = new Hono();
app.get("/health", (c) => c.text("ok"));
await new MastraServer({ app, mastra }).init();
serve({ fetch: app.fetch, port: Number(port), hostname: "127.0.0.1" });
