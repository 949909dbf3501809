/**
 * What `memoryHook` remembers over HTTP: `GET /v1/memory` shows the caller's
 * notes, `DELETE` forgets one or all of them, never another principal's.
 */
import { expect, it } from "vitest";
import { serveProject } from "./support/served-project.ts";

const TOKEN = "memory-secret";
const served = serveProject(
  {
    "bot/instructions.md": "You remember people.",
    "bot/hooks/memory.ts": `import { memoryHook } from "@cursor/bdk/memory";\nexport default memoryHook({ maxNotes: 5 });`,
  },
  { authToken: TOKEN },
);

/** With `bearer`: the token's service principal. Without: `user:local` (loopback). */
const call = served.call;

async function say(message: string, bearer = false): Promise<void> {
  const created = (await (await call("/v1/session", { method: "POST", bearer, body: JSON.stringify({ message }) })).json()) as {
    sessionId: string;
  };
  await served.handle.agents[0].opened.runtime.idle(created.sessionId);
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
