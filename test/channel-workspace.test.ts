/**
 * A channel gives one session its own working directory (a PR worktree):
 * the built-in tools work there, and a continued conversation keeps it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { serveProject } from "./support/served-project.ts";

const worktree = mkdtempSync(path.join(tmpdir(), "bdk-worktree-"));
writeFileSync(path.join(worktree, "README.md"), "Checkout service, branch fix-typo.");
afterAll(() => rmSync(worktree, { recursive: true, force: true }));

const served = serveProject({
    "bot/instructions.md": "You review pull requests in their worktree.",
    "bot/channels/review.ts": `import { defineChannel, POST } from "@cursor/bdk/channels";
import { z } from "zod";
export default defineChannel({
  routes: [
    POST("/pr", {
      bodySchema: z.object({ pr: z.string(), worktree: z.string(), message: z.string() }),
      async handler(_request, { body, send }) {
        const session = await send(body.message, {
          continuationToken: "pr:" + body.pr,
          workspaceDir: body.worktree,
          workspaceFiles: { "REVIEW.md": "Review " + body.pr },
        });
        return Response.json({ sessionId: session.id }, { status: 202 });
      },
    }),
  ],
});`,
});

async function post(message: string): Promise<{ sessionId: string }> {
  const response = await served.call("/v1/channels/review/pr", {
    method: "POST",
    body: JSON.stringify({ pr: "acme/checkout#42", worktree, message }),
  });
  expect(response.status).toBe(202);
  const { sessionId } = (await response.json()) as { sessionId: string };
  await served.handle.agents[0].opened.runtime.idle(sessionId);
  return { sessionId };
}

async function lastResult(sessionId: string) {
  const events = (await served.handle.agents[0].opened.store.events.list(sessionId)) as AnyBdkEvent[];
  return events.filter((event) => event.type === "action.result").at(-1)?.data as { output: { content: string } } | undefined;
}

it("runs the session's tools in the worktree the channel chose, and keeps it for the next message", async () => {
  const first = await post('Use read with {"path":"README.md"}');
  expect((await lastResult(first.sessionId))?.output.content).toBe("Checkout service, branch fix-typo.");
  expect(readFileSync(path.join(worktree, "REVIEW.md"), "utf8")).toBe("Review acme/checkout#42");
  expect((await served.handle.agents[0].opened.store.sessions.get(first.sessionId))?.workspaceDir).toBe(worktree);

  writeFileSync(path.join(worktree, "README.md"), "Checkout service, second push.");
  const second = await post('Use read with {"path":"README.md"}');
  expect(second.sessionId).toBe(first.sessionId);
  expect((await lastResult(second.sessionId))?.output.content).toBe("Checkout service, second push.");
});
