import { forgetNote } from "../memory/memory.ts";
import { type AgentRouteHandler, visibleOwner } from "./agent-routes.ts";
import { json } from "./respond.ts";

/**
 * `GET /v1/memory`, `DELETE /v1/memory`, `DELETE /v1/memory/:id`: what
 * `memoryHook` remembers, and forgetting it. A caller sees and forgets its
 * own notes; everyone's in dev on loopback and anonymous mode.
 */
export const memoryRoutes = {
  async listMemory(req) {
    const notes = await req.opened.store.memory.list(req.opened.agent.name, { principal: visibleOwner(req), limit: 500 });
    return json({ ok: true, notes });
  },

  async forgetMemory(req) {
    const forgotten = await req.opened.store.memory.forget(req.opened.agent.name, visibleOwner(req));
    return json({ ok: true, forgotten });
  },

  async forgetMemoryNote(req) {
    await forgetNote(req.opened.runtime.store, req.opened.agent.name, req.params.id, visibleOwner(req));
    return json({ ok: true, forgotten: 1 });
  },
} satisfies Record<string, AgentRouteHandler>;
