/** Test support for reminders on a real `bdk serve`: a project with the built-in reminders tools, and polling the store. */
import { expect } from "vitest";
import { tempProject } from "../../server/load/testing/temp-project.ts";
import type { RunningServer } from "./bdk-server.ts";

/** A project whose agent has the built-in reminders tools. */
export function remindersProject(name: string, instructions: string): string {
  return tempProject({
    "package.json": `{ "name": "${name}", "type": "module" }`,
    "bot/agent.ts": 'import { defineAgent } from "bdk";\nexport default defineAgent({ builtinTools: { reminders: true } });\n',
    "bot/instructions.md": instructions,
  });
}

/** POSTs a JSON body, expects 202 and returns the answer. */
export async function postAccepted(server: RunningServer, route: string, body: unknown): Promise<Record<string, string>> {
  const response = await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return (await response.json()) as Record<string, string>;
}

/** Polls `read` until it returns a value. */
export async function waitFor<T>(read: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
