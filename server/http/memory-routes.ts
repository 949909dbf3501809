import { BdkError } from "../protocol/errors.ts";
import type { AgentRequest, AgentRouteHandler } from "./agent-routes.ts";
import { json } from "./respond.ts";

/** Whose notes a caller sees and forgets: their own, or everyone's in dev on loopback and anonymous mode. */
const principalFilter = (req: AgentRequest) => (req.seesAll ? undefined : req.principal);

/** `GET /v1/memory`, `DELETE /v1/memory`, `DELETE /v1/memory/:id`: what `memoryHook` remembers, and forgetting it. */
export const memoryRoutes = {
  async listMemory(req) {
    const notes = req.opened.store.memory.list(req.opened.agent.name, { principal: principalFilter(req), limit: 500 });
    return json({ ok: true, notes });
  },

  async forgetMemory(req) {
    const forgotten = req.opened.store.memory.forget(req.opened.agent.name, principalFilter(req));
    return json({ ok: true, forgotten });
  },

  async forgetMemoryNote(req) {
    const { store, agent } = req.opened;
    const note = store.memory.get(agent.name, req.params.id);
    if (!note) throw new BdkError("not_found", `No memory note ${req.params.id}.`);
    const owner = principalFilter(req);
    if (owner && (note.principal.type !== owner.type || note.principal.id !== owner.id)) {
      throw new BdkError("forbidden", `Memory note ${req.params.id} belongs to another principal.`);
    }
    store.memory.delete(agent.name, note.id);
    return json({ ok: true, forgotten: 1 });
  },
} satisfies Record<string, AgentRouteHandler>;
