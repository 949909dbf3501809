/**
 * "stdio children never outlive the server": even a `kill -9` of `bdk serve`
 * (no exit handler runs) takes down an MCP server that ignores its closed stdin.
 */
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_DIR, readNdjson, startServer } from "./support/bdk-server.ts";

const PROJECT = path.join(KIT_DIR, "test", "fixtures", "mcp-stubborn");
let orphan: number | undefined;

afterAll(() => {
  if (orphan !== undefined) kill(orphan);
});

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it.runIf(process.platform === "linux")("a stdio MCP server dies with a server killed by SIGKILL", async () => {
  const server = await startServer({ dir: PROJECT });
  const created = (await (
    await fetch(`${server.url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Use stubborn__pid with {}" }),
    })
  ).json()) as { sessionId: string };
  let pid = 0;
  await readNdjson<{ type: string; data: { output?: { content?: { text: string }[] } } }>(
    await fetch(`${server.url}/v1/session/${created.sessionId}/stream`),
    (event) => {
      if (event.type === "action.result") pid = Number(event.data.output?.content?.[0]?.text);
      return event.type === "turn.completed";
    },
  );
  expect(pid).toBeGreaterThan(0);
  orphan = pid;
  expect(alive(pid)).toBe(true);

  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  process.kill(server.child.pid!, "SIGKILL");
  await exited;
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(alive(pid)).toBe(false);
});
