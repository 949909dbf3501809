import { defineResult } from "bdk/result";

/** Keeps the latest final answer per session; never rejects, so every turn with text commits. */
export default defineResult({
  async commit(text, ctx) {
    await ctx.host.kv.put(`last-answer:${ctx.session.id}`, text);
  },
});
