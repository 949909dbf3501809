import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyProject, removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { findAll, parseXml } from "../server/evals/testing/xml.ts";
import { KIT_DIR } from "./support/bdk-server.ts";
import { CONFORMANCE_DIR } from "./support/conformance.ts";
import { runBdk } from "./support/run-process.ts";
import { evalConfig, SHOP_BOT } from "../server/evals/testing/shop-project.ts";

const PR_APPROVER = path.join(KIT_DIR, "bot-examples", "pr-approver");
const QUICKSTART = path.join(CONFORMANCE_DIR, "quickstart");

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bdk(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runBdk(args, { BDK_MODEL: "scripted", ...env });
}

const stateRoot = () => mkdtempSync(path.join(os.tmpdir(), "bdk-eval-cli-"));

const BOT = SHOP_BOT;
const CONFIG = evalConfig(2);
const FAILING_EVAL = `
  import { defineEval, includes } from "@cursor/bdk/evals";
  export default defineEval({
    cases: [
      { id: "wrong", async test(t) {
        await t.send("lookup_order 'A-1'");
        t.succeeded();
        t.calledTool("refund_order");
        t.calledTool("lookup_order", { input: { orderId: /^B-/ } });
        t.check(t.reply, includes("cancelled"));
        t.maxToolCalls(0).soft();
      } },
      { id: "fine", async test(t) { await t.send("hello"); t.usedNoTools(); } },
    ],
  });`;

afterAll(() => removeTempProjects());

describe("bdk eval", () => {
  it("runs the pr-approver evals with the scripted model, prints each case, writes JSON and JUnit", async () => {
    const root = stateRoot();
    const junit = path.join(root, "report.xml");
    const plain = await bdk(["eval", "--dir", PR_APPROVER, "--state-root", root]);
    expect(plain.stderr).toBe("");
    expect(plain.code).toBe(0);
    for (const id of ["readiness", "review/approved", "review/denied"]) expect(plain.stdout).toMatch(new RegExp(`✓ passed\\s+${id}`));
    expect(plain.stdout).toMatch(/case\s+verdict\s+pass rate\s+time\s+session/);
    expect(plain.stdout).toContain("3 passed, 0 failed, 0 errored, 0 skipped · 3 cases");
    expect(plain.stdout).toMatch(new RegExp(`run evr_\\w+ recorded in ${root}`));
    expect(plain.stdout).not.toMatch(/\x1b\[/);

    const json = await bdk(["eval", "readiness", "--dir", PR_APPROVER, "--state-root", root, "--json", "--junit", junit]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(Object.keys(report)).toEqual(["version", "runId", "agent", "status", "passed", "startedAt", "endedAt", "durationMs", "options", "counts", "cases"]);
    expect(report).toMatchObject({
      version: 1,
      agent: "pr-approver",
      status: "completed",
      passed: true,
      options: { ids: ["readiness"], tags: [], maxConcurrency: 4, strict: false, dryRun: true, target: "local" },
      counts: { total: 1, passed: 1, failed: 0, errored: 0, skipped: 0 },
    });
    const [readiness] = report.cases;
    expect(Object.keys(readiness)).toEqual(["id", "file", "tags", "verdict", "passRate", "durationMs", "sessionId", "assertions", "iterations"]);
    expect(readiness.assertions.map((assertion: { name: string }) => assertion.name)).toEqual([
      "succeeded()",
      'calledTool("inspect_pr", {"input":{"prUrl":"https://github.com/acme/checkout/pull/42"}})',
      'notCalledTool("submit_review")',
      "check(includes /ready|trivial|approve|README/i)",
    ]);
    expect(readiness.iterations).toEqual([expect.objectContaining({ iteration: 0, verdict: "passed", sessionIds: [readiness.sessionId] })]);

    const xml = parseXml(readFileSync(junit, "utf8"));
    expect(xml.attributes).toMatchObject({ tests: "1", failures: "0", errors: "0" });
    expect(findAll(xml, "testcase").map((testcase) => testcase.attributes)).toEqual([
      expect.objectContaining({ classname: "evals/readiness.eval.ts", name: "readiness" }),
    ]);

    const listed = await bdk(["eval", "--dir", PR_APPROVER, "--state-root", root, "--list", "--tag", "approvals", "--json"]);
    expect(JSON.parse(listed.stdout).cases.map((evalCase: { id: string }) => evalCase.id)).toEqual(["review/approved", "review/denied"]);
  }, 60_000);

  it("exits 1 on a failing eval and names every failed assertion with the value it saw", async () => {
    const dir = tempProject({ ...BOT, "evals/evals.config.ts": CONFIG, "evals/orders.eval.ts": FAILING_EVAL });
    const junit = path.join(dir, "junit.xml");
    const result = await bdk(["eval", "--dir", dir, "--junit", junit, "--no-stream"]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("Running 2 eval cases");
    expect(result.stdout).toMatch(/✗ failed\s+orders\/wrong/);
    expect(result.stdout).toMatch(/orders\/fine\s+✓ passed\s+1\/1/);
    expect(result.stdout).toContain('✗ calledTool("refund_order"): expected a call to refund_order; calls: lookup_order {"orderId":"A-1"}');
    expect(result.stdout).toContain(
      '✗ calledTool("lookup_order", { input: { orderId: /^B-/ } }): expected a call to lookup_order with input matching { orderId: /^B-/ }; calls: lookup_order {"orderId":"A-1"}',
    );
    expect(result.stdout).toMatch(/✗ check\(includes "cancelled"\): expected "lookup_order returned: .*shipped.*" to satisfy includes "cancelled"/);
    expect(result.stdout).toMatch(/! \(soft\) maxToolCalls\(0\): 1 tool call\(s\), expected at most 0/);
    expect(result.stdout).toContain("1 passed, 1 failed, 0 errored, 0 skipped · 2 cases");

    const cases = findAll(parseXml(readFileSync(junit, "utf8")), "testcase");
    expect(findAll(cases.find((testcase) => testcase.attributes.name === "orders/wrong")!, "failure")[0].text.split("\n")).toHaveLength(4);
  }, 60_000);

  it("exits 2 on configuration errors", async () => {
    const broken = tempProject({ ...BOT, "evals/evals.config.ts": "export default {", "evals/a.eval.ts": FAILING_EVAL });
    const brokenRun = await bdk(["eval", "--dir", broken]);
    expect(brokenRun.code).toBe(2);
    expect(brokenRun.stderr).toMatch(/evals\/evals\.config\.ts:1\s+failed to load: ParseError/);

    const badField = tempProject({ ...BOT, "evals/evals.config.ts": "export default { maxConcurrency: 0 };", "evals/a.eval.ts": FAILING_EVAL });
    const badFieldRun = await bdk(["eval", "--dir", badField]);
    expect(badFieldRun.code).toBe(2);
    expect(badFieldRun.stderr).toContain("evals/evals.config.ts  maxConcurrency: must be at least 1");

    const none = await bdk(["eval", "--dir", tempProject(BOT)]);
    expect(none).toMatchObject({ code: 2, stderr: "bdk eval: this project has no evals (evals/**/*.eval.ts)\n" });

    const fine = tempProject({ ...BOT, "evals/evals.config.ts": CONFIG, "evals/orders.eval.ts": FAILING_EVAL });
    const unknown = await bdk(["eval", "orders/fine", "billing", "--dir", fine]);
    expect(unknown).toMatchObject({ code: 2, stderr: 'bdk eval: no eval matches "billing"\n' });
    const noModel = await bdk(["eval", "--dir", fine], { BDK_MODEL: "", XAI_API_KEY: "" });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain("Model grok-4.5 needs XAI_API_KEY");
    const badFlag = await bdk(["eval", "--dir", fine, "--max-concurrency", "0"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("--max-concurrency must be a positive integer");
  }, 60_000);

  it("runs the conformance quickstart's evals unchanged", async () => {
    const dir = copyProject(QUICKSTART);
    const result = await bdk(["eval", "--dir", dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ passed\s+readiness/);
  }, 60_000);
});
