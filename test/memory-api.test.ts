/**
 * What `memoryHook` remembers over HTTP: `GET /v1/memory` shows the caller's
 * notes, `DELETE` forgets one or all of them, never another principal's.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { serve, type ServeHandle } from "../web/serve.ts";

const TOKEN = "memory-secret";
let handle: ServeHandle;

beforeAll(async () => {
  const dir = tempProject({
    "bot/instructions.md": "You remember people.",
    "bot/hooks/memory.ts": `import { memoryHook } from "@cursor/bdk/memory";\nexport default memoryHook({ maxNotes: 5 });`,
  });
  handle = await serve(dir, { port: 0, authToken: TOKEN, env: { BDK_MODEL: "scripted" } });
}, 180_000);

afterAll(async () => {
  await handle?.close();
  removeTempProjects();
});

/** With `bearer`: the token's service principal. Without: `user:local` (loopback). */
function call(route: string, init: RequestInit & { bearer?: boolean } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.bearer) headers.authorization = `Bearer ${TOKEN}`;
  return fetch(`${handle.url}${route}`, { ...init, headers });
}

async function say(message: string, bearer = false): Promise<void> {
  const created = (await (await call("/v1/session", { method: "POST", bearer, body: JSON.stringify({ message }) })).json()) as {
    sessionId: string;
  };
  await handle.agents[0].opened.runtime.idle(created.sessionId);
}

type Notes = { notes: { id: string; note: string; principal: { id: string } }[] };

it("lists the caller's notes and forgets them one by one or all at once, never another principal's", async () => {
  await say("My favourite colour is teal.");
  await say("I live in Lisbon.");
  await say("Our deploy window is Tuesday.", true);

  const mine = (await (await call("/v1/memory")).json()) as Notes;
  expect(mine.notes.map((note) => note.note.split("\n")[0])).toEqual(["Asked: I live in Lisbon.", "Asked: My favourite colour is teal."]);
  const theirs = (await (await call("/v1/memory", { bearer: true })).json()) as Notes;
  expect(theirs.notes).toHaveLength(1);
  expect(theirs.notes[0].note).toContain("deploy window");

  const refused = await call(`/v1/memory/${mine.notes[0].id}`, { method: "DELETE", bearer: true });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ ok: false, error: "forbidden" });

  const forgotOne = await call(`/v1/memory/${mine.notes[0].id}`, { method: "DELETE" });
  expect(await forgotOne.json()).toEqual({ ok: true, forgotten: 1 });
  expect(((await (await call("/v1/memory")).json()) as Notes).notes).toHaveLength(1);
  expect((await call(`/v1/memory/${mine.notes[0].id}`, { method: "DELETE" })).status).toBe(404);

  expect(await (await call("/v1/memory", { method: "DELETE" })).json()).toEqual({ ok: true, forgotten: 1 });
  expect(((await (await call("/v1/memory")).json()) as Notes).notes).toEqual([]);
  expect(((await (await call("/v1/memory", { bearer: true })).json()) as Notes).notes).toHaveLength(1);
});
