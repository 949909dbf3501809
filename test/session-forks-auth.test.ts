/**
 * Without --dev the loopback caller is one principal among others: it cannot
 * read, continue, fork or diff a session a bearer client started.
 */
import { describe, expect, it } from "vitest";
import { ALPHA, as, BETA, curlSession, forkProjectFiles, post } from "./support/fork-project.ts";
import { serveProject } from "./support/served-project.ts";

const plain = serveProject(forkProjectFiles, { authToken: [ALPHA, BETA] });

describe("bdk serve without --dev", () => {
  it("keeps a bearer client's session from the loopback caller: 403 on token, fork and diff", async () => {
    const { sessionId, messageIndex } = await curlSession(plain);
    for (const [route, init] of [
      [`/v1/session/${sessionId}/token`, {}],
      [`/v1/session/${sessionId}/fork`, post({ beforeIndex: messageIndex })],
      [`/v1/session/${sessionId}/diff/${sessionId}`, {}],
    ] as const) {
      expect((await as(plain, undefined, route, init)).status, route).toBe(403);
    }
    // Save as eval case exists only under --dev.
    expect((await as(plain, undefined, "/v1/dev/evals/cases", post({ sessionId, name: "x" }))).status).toBe(404);
    const own = await as(plain, ALPHA, `/v1/session/${sessionId}/fork`, post({ beforeIndex: messageIndex }));
    expect(own.status).toBe(202);
  });
});
