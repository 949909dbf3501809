import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

type Event = { type: string; data: Record<string, unknown> };
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function turnVersion(url: string, sessionId: string): Promise<string> {
  const events = await readNdjson<Event>(
    await fetch(`${url}/v1/session/${sessionId}/stream`),
    (event) => event.type === "session.waiting",
  );
  return String(events.find((event) => event.type === "turn.started")?.data.botVersion);
}

it("reloads bot/ on change; a running turn finishes on the version it started with", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bdk-dev-"));
  cpSync(path.join(KIT_DIR, "bot-examples", "hello"), dir, { recursive: true });
  symlinkSync(path.join(KIT_DIR, "node_modules"), path.join(dir, "node_modules"));
  server = await startServer({ dir, args: ["--dev"], env: { BDK_SCRIPTED_DELAY_MS: "1500" } });
  const before = (await (await fetch(`${server.url}/v1/info`)).json()) as { version: string; tools: unknown[] };

  const running = (await (await post(`${server.url}/v1/session`, { message: "hello" })).json()) as {
    sessionId: string;
  };
  await new Promise((resolve) => setTimeout(resolve, 200));
  mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
  cpSync(path.join(KIT_DIR, "test", "fixtures", "greet-tool.ts"), path.join(dir, "bot", "tools", "greet.ts"));

  const deadline = Date.now() + 10_000;
  let after = before;
  while (after.version === before.version && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = (await (await fetch(`${server.url}/v1/info`)).json()) as typeof before;
  }
  expect(after.version).not.toBe(before.version);
  expect(JSON.stringify(after.tools)).toContain("greet");

  expect(await turnVersion(server.url, running.sessionId)).toBe(before.version);
  const fresh = (await (await post(`${server.url}/v1/session`, { message: "hello" })).json()) as { sessionId: string };
  expect(await turnVersion(server.url, fresh.sessionId)).toBe(after.version);
}, 120_000);
