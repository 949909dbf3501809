/**
 * "Save as eval case" on `bdk serve --dev`: a session becomes
 * `evals/<name>.eval.ts` (its messages and observed tool calls as `t`
 * assertions), the Evals tab's routes list and run it without a restart, and
 * so do eval files edited by hand; names that would leave evals/ and
 * overwrites without consent are refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { as, forkProjectFiles, post, settled } from "./support/fork-project.ts";
import { serveProject } from "./support/served-project.ts";

const dev = serveProject(forkProjectFiles, { dev: true });

async function loopbackSession(message: string): Promise<string> {
  const { sessionId } = (await (await as(dev, undefined, "/v1/session", post({ message }))).json()) as { sessionId: string };
  await settled(dev, undefined, sessionId);
  return sessionId;
}

async function caseIds(): Promise<string[]> {
  const listed = (await (await as(dev, undefined, "/v1/evals")).json()) as { cases: { id: string }[] };
  return listed.cases.map((evalCase) => evalCase.id);
}

async function listed(id: string): Promise<void> {
  for (let tries = 0; !(await caseIds()).includes(id); tries++) {
    if (tries === 400) throw new Error(`eval case ${id} never showed up`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function finishedRun(runId: string) {
  for (let tries = 0; tries < 400; tries++) {
    const { run, cases } = (await (await as(dev, undefined, `/v1/evals/runs/${runId}`)).json()) as {
      run: { status: string; name?: string };
      cases: { id: string; verdict: string }[];
    };
    if (run.status !== "running") return { run, cases };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never finished`);
}

describe("Save as eval case", () => {
  it("writes a readable eval of the session that the Evals routes list and run at once, under a run name", async () => {
    const sessionId = await loopbackSession('run price {"sku":"A1"}');
    await as(dev, undefined, `/v1/session/${sessionId}`, post({ message: "thanks", continuationToken: ((await (await as(dev, undefined, `/v1/session/${sessionId}/token`)).json()) as { continuationToken: string }).continuationToken }));
    await settled(dev, undefined, sessionId);
    expect(await caseIds()).not.toContain("saved/price");

    const saved = await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId, name: "saved/price" }));
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ ok: true, file: "evals/saved/price.eval.ts", caseIds: ["saved/price"] });
    const text = readFileSync(path.join(dev.dir, "evals/saved/price.eval.ts"), "utf8");
    expect(text).toContain('await t.send("run price {\\"sku\\":\\"A1\\"}");');
    expect(text).toContain('t.calledTool("price", { input: {"sku":"A1"} });');
    expect(text).toContain('await t.send("thanks");');
    expect(text).toContain("t.usedNoTools();");
    expect(await caseIds()).toContain("saved/price");

    const started = await as(dev, undefined, "/v1/evals/runs", post({ ids: ["saved/price"], name: "after saving" }));
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    const { run, cases } = await finishedRun(runId);
    expect(run).toMatchObject({ status: "completed", name: "after saving" });
    expect(cases).toEqual([expect.objectContaining({ id: "saved/price", verdict: "passed" })]);
    const listed = (await (await as(dev, undefined, "/v1/evals/runs")).json()) as { runs: { runId: string; name?: string }[] };
    expect(listed.runs.find((entry) => entry.runId === runId)?.name).toBe("after saving");
  });

  it("refuses to replace a file without overwrite, and replaces it with it", async () => {
    const sessionId = await loopbackSession("hello");
    expect((await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId, name: "hello" }))).status).toBe(201);
    writeFileSync(path.join(dev.dir, "evals/hello.eval.ts"), readFileSync(path.join(dev.dir, "evals/hello.eval.ts"), "utf8").replace("t.usedNoTools();", "t.usedNoTools(); // mine"));
    const again = await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId, name: "hello" }));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: "already_exists", message: expect.stringContaining('evals/hello.eval.ts already exists: send "overwrite": true') });
    expect(readFileSync(path.join(dev.dir, "evals/hello.eval.ts"), "utf8")).toContain("// mine");
    expect((await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId, name: "hello", overwrite: true }))).status).toBe(201);
    expect(readFileSync(path.join(dev.dir, "evals/hello.eval.ts"), "utf8")).not.toContain("// mine");
  });

  it("refuses names that would leave evals/, through a symlinked folder too, and cross-site callers", async () => {
    const sessionId = await loopbackSession("hello");
    const outside = mkdtempSync(path.join(tmpdir(), "bdk-outside-"));
    mkdirSync(path.join(dev.dir, "evals"), { recursive: true });
    symlinkSync(outside, path.join(dev.dir, "evals/link"));
    for (const name of ["../escape", "/tmp/abs", "a/../../b", "..", "a//b", "a\\b", "link/x"]) {
      const response = await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId, name }));
      expect(response.status, name).toBe(400);
      expect(((await response.json()) as { message: string }).message, name).toMatch(/not an eval case name|outside evals/);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(dev.dir, "escape.eval.ts"))).toBe(false);
    const crossSite = await as(dev, undefined, "/v1/dev/evals/cases", {
      ...post({ sessionId, name: "ok" }),
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const missing = await as(dev, undefined, "/v1/dev/evals/cases", post({ sessionId: "ses_nope", name: "ok" }));
    expect(missing.status).toBe(404);
  });

  it("sees eval files written and edited by hand while dev runs", async () => {
    writeFileSync(
      path.join(dev.dir, "evals/manual.eval.ts"),
      `import { defineEval } from "@cursor/bdk/evals";
export default defineEval({ async test(t) { await t.send("hello"); t.succeeded(); } });
`,
    );
    await listed("manual");
    // Edited: the file now has cases, and the list follows.
    writeFileSync(
      path.join(dev.dir, "evals/manual.eval.ts"),
      `import { defineEval } from "@cursor/bdk/evals";
export default defineEval({ cases: [{ id: "one", async test(t) { await t.send("hello"); t.succeeded(); } }] });
`,
    );
    await listed("manual/one");
    expect(await caseIds()).not.toContain("manual");
  });
});
