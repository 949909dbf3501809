import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "../../test/support/openai-compatible-server.ts";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import { compareRuns } from "./compare.ts";
import { EvalConfigError } from "./runner.ts";
import { startRun, type StartRunInput } from "./start-run.ts";
import { readStoredRun } from "./stored-runs.ts";
import { localTarget } from "./target.ts";
import { evalConfig, REFUND_TOOL, SHOP_BOT } from "./testing/shop-project.ts";
import type { CaseResult } from "./types.ts";

const BOT = { ...SHOP_BOT, ...REFUND_TOOL };

const CONFIG = (extra = "") => evalConfig(2, extra);

const EVALS = {
  "evals/assertions.eval.ts": `
    import { defineEval, includes, equals, satisfies } from "@cursor/bdk/evals";
    export default defineEval({
      tags: ["unit"],
      timeoutMs: 5000,
      cases: [
        { id: "mixed", async test(t) {
          await t.send("Please lookup_order 'A-1'");
          t.succeeded();
          t.calledTool("refund");
          t.usedNoTools().soft();
          t.check(t.reply, includes("shipped"));
          t.check(t.reply.length, equals(3));
        } },
        { id: "soft-only", async test(t) {
          await t.send("hello");
          t.succeeded();
          t.calledTool("lookup_order").soft();
        } },
        { id: "throws", async test(t) {
          await t.send("hello");
          t.succeeded();
          throw new Error("fixture exploded");
        } },
        { id: "no-send", async test(t) { t.succeeded(); } },
        { id: "slow", timeoutMs: 80, async test(t) { await new Promise(() => {}); } },
        { id: "files", async test(t) {
          await t.send("hello", { workspaceFiles: { "notes/todo.txt": "call the customer" } });
          t.check(t.sessionId, satisfies((id) => typeof id === "string" && id.startsWith("ses_"), "a session id"));
        } },
        { id: "escape", async test(t) { await t.send("hello", { workspaceFiles: { "../outside.txt": "x" } }); } },
      ],
    });`,
  "evals/flaky.eval.ts": `
    import { defineEval, satisfies } from "@cursor/bdk/evals";
    let runs = 0;
    export default defineEval({
      iterations: 3,
      async test(t) {
        const run = ++runs;
        await t.send("hello");
        t.check(run, satisfies((n) => n !== 2, "not the second run"));
      },
    });`,
  "evals/judged.eval.ts": `
    import { defineEval } from "@cursor/bdk/evals";
    export default defineEval({
      cases: [
        { id: "only-judge", async test(t) { await t.send("hello"); await t.judge("The reply is polite."); } },
        { id: "judge-on", async test(t) { await t.judge("Mentions shipping.", { on: "It shipped yesterday.", threshold: 0.5 }); } },
      ],
    });`,
  "evals/soft-judged.eval.ts": `
    import { defineEval } from "@cursor/bdk/evals";
    export default defineEval({
      async test(t) {
        await t.send("hello");
        t.succeeded();
        await t.judge("Mentions shipping.").soft();
        t.judge("Is written in French.").soft();
      },
    });`,
  "evals/approvals.eval.ts": `
    import { defineEval, includes } from "@cursor/bdk/evals";
    const ask = 'Issue a refund {"orderId": "A-1", "amount": 5}';
    export default defineEval({
      tags: ["approvals"],
      cases: [
        { id: "approve", async test(t) {
          await t.send(ask);
          t.calledTool("refund", { input: { orderId: "A-1", amount: 5 } });
          await t.approve();
          t.succeeded();
          t.check(t.reply, includes('"dryRun":true'));
        } },
        { id: "deny", async test(t) {
          await t.send(ask);
          await t.deny("too much");
          t.succeeded();
          t.check(t.reply, includes(/denied/));
        } },
        { id: "nothing-pending", async test(t) {
          await t.send("hello");
          await t.approve();
        } },
        { id: "never-answered", async test(t) {
          await t.send(ask);
          t.calledTool("refund");
        } },
      ],
    });`,
  "evals/parallel.eval.ts": `
    import { defineEval } from "@cursor/bdk/evals";
    export default defineEval({
      tags: ["parallel"],
      cases: ["a", "b", "c", "d", "e"].map((id) => ({ id, async test(t) {
        const state = globalThis.__evalParallel;
        state.now++;
        state.max = Math.max(state.max, state.now);
        await new Promise((resolve) => setTimeout(resolve, 30));
        await t.send("hello");
        state.now--;
        t.succeeded();
      } })),
    });`,
};

let opened: OpenedAgent | undefined;
let llm: OpenAICompatibleServer;

beforeAll(async () => {
  llm = await startOpenAICompatibleServer();
});
afterAll(async () => {
  await llm.close();
});
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  removeTempProjects();
});

async function open(files: Record<string, string>): Promise<OpenedAgent> {
  const dir = tempProject(files);
  opened = await openAgent(dir, { stateRoot: mkdtempSync(path.join(os.tmpdir(), "bdk-eval-state-")), model: "scripted", env: {} });
  return opened;
}

function run(agent: OpenedAgent, overrides: Partial<StartRunInput> = {}) {
  return startRun({
    agent: agent.agent.name,
    evals: agent.agent.evals,
    filter: {},
    target: localTarget(agent, { type: "user", id: "local" }),
    store: agent.runtime.store,
    env: {},
    options: { strict: false, dryRun: true, target: "local" },
    ...overrides,
  });
}

const byId = (cases: CaseResult[]) => Object.fromEntries(cases.map((result) => [result.id, result]));

describe("runEvals", () => {
  it("reports every assertion of a case, soft ones as warnings, throws and timeouts as errored", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const report = await (await run(agent, { filter: { ids: ["assertions"] } })).done;
    const cases = byId(report.cases);

    expect(cases["assertions/mixed"].verdict).toBe("failed");
    expect(cases["assertions/mixed"].assertions.map(({ name, passed, severity }) => [name, passed, severity])).toEqual([
      ["succeeded()", true, "error"],
      ['calledTool("refund")', false, "error"],
      ["usedNoTools()", false, "warning"],
      ['check(includes "shipped")', true, "error"],
      ["check(equals 3)", false, "error"],
    ]);
    expect(cases["assertions/mixed"].assertions[1].message).toBe('expected a call to refund; calls: lookup_order {"orderId":"A-1"}');
    expect(cases["assertions/mixed"].assertions[4].message).toMatch(/^expected 3, got \d+$/);

    expect(cases["assertions/soft-only"].verdict).toBe("passed");
    expect(cases["assertions/soft-only"].assertions[1]).toMatchObject({ passed: false, severity: "warning" });

    expect(cases["assertions/throws"]).toMatchObject({ verdict: "errored", error: "fixture exploded" });
    expect(cases["assertions/throws"].assertions).toMatchObject([{ name: "succeeded()", passed: true }]);
    expect(cases["assertions/no-send"]).toMatchObject({ verdict: "errored", error: "t.succeeded() needs a turn: await t.send(...) first" });
    expect(cases["assertions/slow"]).toMatchObject({ verdict: "errored", error: "timed out after 80 ms" });

    const files = cases["assertions/files"];
    expect(files.verdict).toBe("passed");
    expect(readFileSync(path.join(agent.stateRoot, "workspaces", files.sessionId!, "notes/todo.txt"), "utf8")).toBe("call the customer");

    expect(cases["assertions/escape"]).toMatchObject({ verdict: "errored", error: expect.stringMatching(/^workspaceFiles: "..\/outside.txt" /) });

    expect(report.counts).toEqual({ total: 7, passed: 2, failed: 1, errored: 4, skipped: 0 });
    expect(report.passed).toBe(false);

    const strict = await (await run(agent, { filter: { ids: ["assertions/soft-only"] }, options: { strict: true, dryRun: true, target: "local" } })).done;
    expect(strict.cases[0].verdict).toBe("failed");
  });

  it("repeats a case `iterations` times and reports the pass rate", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const report = await (await run(agent, { filter: { ids: ["flaky"] } })).done;
    const [flaky] = report.cases;
    expect(flaky.iterations.map((iteration) => iteration.verdict).sort()).toEqual(["failed", "passed", "passed"]);
    expect(flaky).toMatchObject({ verdict: "failed", passRate: 2 / 3 });
    expect(new Set(flaky.iterations.flatMap((iteration) => iteration.sessionIds)).size).toBe(3);
    expect(flaky.assertions[0].message).toBe("2 fails: not the second run");
  });

  it("skips judge assertions with the reason when no judge model is available, and grades with one", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const unjudged = await (await run(agent, { filter: { ids: ["judged"] } })).done;
    const cases = byId(unjudged.cases);
    expect(cases["judged/only-judge"].verdict).toBe("skipped");
    expect(cases["judged/only-judge"].assertions[0]).toMatchObject({
      passed: false,
      skipped: true,
      message: "skipped: no judge model is configured (set judge: { model } in evals/evals.config.ts)",
    });
    expect(unjudged.counts.skipped).toBe(2);
    expect(unjudged.passed).toBe(true);
    await agent.close();

    const noKey = await open({ ...BOT, "evals/evals.config.ts": CONFIG(', judge: { model: "openai/gpt-5" }'), ...EVALS });
    const missing = await (await run(noKey, { filter: { ids: ["judged/judge-on"] } })).done;
    expect(missing.cases[0].assertions[0].message).toMatch(/^skipped: judge model openai\/gpt-5 is unavailable: .*OPENAI_API_KEY/);
    await noKey.close();

    const judged = await open({ ...BOT, "evals/evals.config.ts": CONFIG(', judge: { model: "compat/judge-1" }'), ...EVALS });
    // One case at a time, in id order: judge-on takes the first answer.
    llm.enqueue({ text: '```json\n{"score": 0.2, "reason": "No shipping."}\n```' }, { text: 'Sure: {"score": 0.9, "reason": "It is polite."}' });
    const graded = await (await run(judged, { filter: { ids: ["judged"], maxConcurrency: 1 }, env: { BDK_OPENAI_BASE_URL: llm.baseURL }, options: { strict: false, dryRun: true, target: "local", model: "scripted" } })).done;
    const gradedCases = byId(graded.cases);
    expect(gradedCases["judged/judge-on"].assertions[0]).toMatchObject({ passed: false, score: 0.2, message: "compat/judge-1 scored 0.20 (< 0.5): No shipping." });
    expect(gradedCases["judged/only-judge"].assertions[0]).toMatchObject({ passed: true, score: 0.9 });
    const prompts = llm.requests.map((request) => JSON.stringify(request.body.messages));
    expect(prompts.some((prompt) => prompt.includes("Mentions shipping.") && prompt.includes("It shipped yesterday."))).toBe(true);
  });

  it("t.judge(...).soft(), awaited or not: graded, reported as a warning, failing the case only under --strict", async () => {
    const judged = await open({ ...BOT, "evals/evals.config.ts": CONFIG(', judge: { model: "compat/judge-1" }'), ...EVALS });
    llm.enqueue({ text: '{"score": 0.2, "reason": "No shipping."}' }, { text: '{"score": 0.1, "reason": "English."}' });
    const options = { strict: false, dryRun: true, target: "local" as const, model: "scripted" };
    const env = { BDK_OPENAI_BASE_URL: llm.baseURL };
    const lenient = await (await run(judged, { filter: { ids: ["soft-judged"] }, env, options })).done;
    expect(lenient.cases[0].verdict).toBe("passed");
    expect(lenient.cases[0].assertions.map(({ name, passed, severity, message }) => ({ name, passed, severity, message }))).toEqual([
      { name: "succeeded()", passed: true, severity: "error", message: expect.any(String) },
      { name: 'judge("Mentions shipping.")', passed: false, severity: "warning", message: "compat/judge-1 scored 0.20 (< 0.7): No shipping." },
      { name: 'judge("Is written in French.")', passed: false, severity: "warning", message: "compat/judge-1 scored 0.10 (< 0.7): English." },
    ]);
    llm.enqueue({ text: '{"score": 0.2, "reason": "No shipping."}' }, { text: '{"score": 0.1, "reason": "English."}' });
    const strict = await (await run(judged, { filter: { ids: ["soft-judged"] }, env, options: { ...options, strict: true } })).done;
    expect(strict.cases[0].verdict).toBe("failed");
    await judged.close();
  });

  it("answers approvals with t.approve() / t.deny(), and stops turns a case left parked", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const report = await (await run(agent, { filter: { tags: ["approvals"] } })).done;
    const cases = byId(report.cases);
    expect(cases["approvals/approve"].verdict).toBe("passed");
    expect(cases["approvals/deny"].verdict).toBe("passed");
    expect(cases["approvals/nothing-pending"]).toMatchObject({
      verdict: "errored",
      error: "t.approve(): no approval is pending in the current turn (the turn ended without asking for one)",
    });
    expect(cases["approvals/never-answered"].verdict).toBe("passed");

    const parked = cases["approvals/never-answered"].sessionId!;
    await agent.runtime.idle(parked);
    const principal = { type: "user" as const, id: "local" };
    expect(await agent.runtime.inbox.listApprovals(undefined)).toEqual([]);
    expect((await agent.runtime.reader.events(parked, principal)).map((event) => event.type)).toContain("turn.failed");

    const session = await agent.runtime.getSession(cases["approvals/approve"].sessionId!, principal);
    expect(session).toMatchObject({ channel: "eval", purpose: "eval", dryRun: true, title: "eval approvals/approve" });
  });

  it("keeps at most maxConcurrency cases in flight", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const state = ((globalThis as Record<string, unknown>).__evalParallel = { now: 0, max: 0 });
    const report = await (await run(agent, { filter: { tags: ["parallel"] } })).done;
    expect(report.counts.passed).toBe(5);
    expect(state.max).toBe(2);
    expect(report.options.maxConcurrency).toBe(2);

    state.max = 0;
    await (await run(agent, { filter: { tags: ["parallel"], maxConcurrency: 4 } })).done;
    expect(state.max).toBe(4);
  });

  it("stores each run with verdicts, assertions and session ids; two runs compare case by case", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    const first = await run(agent, { filter: { ids: ["assertions/mixed", "assertions/soft-only", "flaky"] } });
    expect(await readStoredRun(agent.runtime.store, first.runId!)).toMatchObject({ status: "running", counts: { total: 3 } });
    await first.done;
    const second = await run(agent, { filter: { ids: ["assertions/soft-only", "judged/judge-on"] }, options: { strict: true, dryRun: true, target: "local" } });
    await second.done;

    const stored = (await readStoredRun(agent.runtime.store, first.runId!))!;
    expect(stored).toMatchObject({ runId: first.runId, status: "completed", passed: false, counts: { total: 3, passed: 1, failed: 2 } });
    expect(stored.cases.map((evalCase) => [evalCase.id, evalCase.verdict])).toEqual([
      ["assertions/mixed", "failed"],
      ["assertions/soft-only", "passed"],
      ["flaky", "failed"],
    ]);
    const mixed = stored.cases[0] as CaseResult;
    expect(mixed.sessionId).toMatch(/^ses_/);
    expect(mixed.assertions).toHaveLength(5);

    const comparison = compareRuns(stored, (await readStoredRun(agent.runtime.store, second.runId!))!);
    expect(comparison.cases).toEqual([
      expect.objectContaining({ id: "assertions/mixed", before: "failed", changed: true, change: "removed" }),
      expect.objectContaining({ id: "assertions/soft-only", before: "passed", after: "failed", changed: true, change: "regressed" }),
      expect.objectContaining({ id: "flaky", before: "failed", change: "removed" }),
      expect.objectContaining({ id: "judged/judge-on", after: "skipped", change: "added" }),
    ]);
    expect(comparison.summary).toMatchObject({ regressed: 1, removed: 2, added: 1 });
    // With the project's cases known, a case the second run did not select is "not run", not "removed".
    const known = compareRuns(stored, (await readStoredRun(agent.runtime.store, second.runId!))!, ["assertions/mixed", "assertions/soft-only", "judged/judge-on"]);
    expect(known.cases.map((evalCase) => [evalCase.id, evalCase.change])).toEqual([
      ["assertions/mixed", "not_run"],
      ["assertions/soft-only", "regressed"],
      ["flaky", "removed"],
      ["judged/judge-on", "added"],
    ]);
    expect(known.summary).toMatchObject({ not_run: 1, removed: 1 });
  });

  it("refuses setups with nothing sound to run", async () => {
    const agent = await open({ ...BOT, "evals/evals.config.ts": CONFIG(), ...EVALS });
    await expect(run(agent, { filter: { ids: ["nope", "flaky"] } })).rejects.toThrow(new EvalConfigError('no eval matches "nope"'));
    await expect(run(agent, { filter: { tags: ["none"] } })).rejects.toThrow(/no eval has the tag "none"/);
    await expect(run(agent, { filter: { maxConcurrency: 0 } })).rejects.toThrow(/maxConcurrency must be a positive integer/);
    await expect(run(agent, { evals: undefined })).rejects.toThrow(/has no evals/);
    expect(existsSync(agent.stateRoot)).toBe(true);
  });
});
