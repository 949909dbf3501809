import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

const PR_APPROVER = path.join(KIT_DIR, "bot-examples", "pr-approver");

interface StoredRun {
  runId: string;
  status: string;
  passed: boolean;
  counts: Record<string, number>;
}
interface StoredCase {
  id: string;
  verdict: string;
  sessionId?: string;
  playgroundUrl?: string;
  traceUrl?: string;
  assertions?: { name: string; passed: boolean }[];
}

let server: RunningServer;
const api = (route: string, init?: RequestInit) => fetch(`${server.url}${route}`, init);
const post = (route: string, body: unknown) =>
  api(route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function finishedRun(runId: string): Promise<{ run: StoredRun; cases: StoredCase[] }> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const body = (await (await api(`/v1/evals/runs/${runId}`)).json()) as { run: StoredRun; cases: StoredCase[] };
    if (body.run.status !== "running") return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not finish`);
}

beforeAll(async () => {
  server = await startServer({ dir: PR_APPROVER });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe("eval routes", () => {
  it("lists the cases with ids, tags and descriptions", async () => {
    const response = await api("/v1/evals");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; config: unknown; cases: Record<string, unknown>[] };
    expect(body.ok).toBe(true);
    expect(body.config).toEqual({ maxConcurrency: 4, timeoutMs: null, judge: null });
    expect(body.cases.map((evalCase) => [evalCase.id, evalCase.tags])).toEqual([
      ["readiness", ["smoke"]],
      ["review/approved", ["approvals"]],
      ["review/denied", ["approvals"]],
    ]);
    expect(body.cases[1]).toMatchObject({ file: "evals/review.eval.ts", description: expect.stringContaining("approval"), iterations: 1 });
  });

  it("runs evals in the background, stores them, lists them newest first and compares two runs", async () => {
    const started = await post("/v1/evals/runs", {});
    expect(started.status).toBe(202);
    const { ok, runId, cases: selected } = (await started.json()) as { ok: boolean; runId: string; cases: string[] };
    expect(ok).toBe(true);
    expect(runId).toMatch(/^evr_/);
    expect(selected).toEqual(["readiness", "review/approved", "review/denied"]);

    const first = await finishedRun(runId);
    expect(first.run).toMatchObject({ runId, status: "completed", passed: true, counts: { total: 3, passed: 3 } });
    expect(first.run).toMatchObject({ options: { target: "http", dryRun: true } });
    const readiness = first.cases.find((evalCase) => evalCase.id === "readiness")!;
    expect(readiness).toMatchObject({ verdict: "passed", sessionId: expect.stringMatching(/^ses_/) });
    expect(readiness.playgroundUrl).toBe(`/playground?sessionId=${readiness.sessionId}`);
    expect(readiness.assertions?.every((assertion) => assertion.passed)).toBe(true);

    // The case's session is a normal session of the caller: the playground can open its trace.
    const session = (await (await api(`/v1/session/${readiness.sessionId}`)).json()) as { session: Record<string, unknown> };
    expect(session.session).toMatchObject({ channel: "eval", title: "eval readiness", status: "waiting" });
    const trace = await api(readiness.traceUrl!.replace("startIndex=0", "startIndex=0&follow=false"));
    expect(await trace.text()).toContain('"inspect_pr"');

    const second = (await (await post("/v1/evals/runs", { tags: ["smoke"], strict: true })).json()) as { runId: string };
    await finishedRun(second.runId);

    const listed = (await (await api("/v1/evals/runs")).json()) as { runs: StoredRun[] };
    expect(listed.runs.slice(0, 2).map((run) => run.runId)).toEqual([second.runId, runId]);

    const compared = await api(`/v1/evals/runs/${runId}/compare/${second.runId}`);
    expect(compared.status).toBe(200);
    const comparison = (await compared.json()) as { before: string; after: string; cases: Record<string, unknown>[]; summary: Record<string, number> };
    expect(comparison).toMatchObject({ before: runId, after: second.runId, summary: { unchanged: 1, not_run: 2, removed: 0 } });
    expect(comparison.cases[0]).toMatchObject({ id: "readiness", before: "passed", after: "passed", changed: false });
    // The second run did not select it, and the project still has it: "not run", not "removed".
    expect(comparison.cases[1]).toMatchObject({ id: "review/approved", before: "passed", changed: true, change: "not_run" });
  });

  it("answers bad requests with the error envelope", async () => {
    const unknown = await post("/v1/evals/runs", { ids: ["nope"] });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ ok: false, error: "invalid_request", message: 'no eval matches "nope"' });
    const badBody = await post("/v1/evals/runs", { ids: "readiness" });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { message: string }).message).toMatch(/^ids: /);
    const missing = await api("/v1/evals/runs/evr_missing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, error: "not_found" });
  });

  it("bdk eval --url drives the server's agent through the HTTP API", async () => {
    const stateRoot = mkdtempSync(path.join(os.tmpdir(), "bdk-eval-url-"));
    const result = await runBdk(["eval", "--url", server.url, "--dir", PR_APPROVER, "--state-root", stateRoot, "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { passed: boolean; options: { target: string }; cases: StoredCase[] };
    expect(report).toMatchObject({ passed: true, options: { target: "url" } });
    expect(report.cases.map((evalCase) => [evalCase.id, evalCase.verdict])).toEqual([
      ["readiness", "passed"],
      ["review/approved", "passed"],
      ["review/denied", "passed"],
    ]);
    // The sessions live on the server, marked as eval sessions.
    const approved = report.cases[1];
    const session = (await (await api(`/v1/session/${approved.sessionId}`)).json()) as { session: Record<string, unknown> };
    expect(session.session).toMatchObject({ channel: "eval", title: "eval review/approved" });
  }, 60_000);
});
