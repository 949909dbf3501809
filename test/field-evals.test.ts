/**
 * Evals as real projects write them never gate the agent: no
 * evals/evals.config.ts, a plain-object config, single-case and multi-case
 * evals with tags, and an eval file that fails to load. Each fixture goes
 * through validate, info, run, call, eval and serve.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { fieldProject, scriptedBdk, serveField, servedFieldProject } from "./support/field.ts";

afterAll(removeTempProjects);

const DEFAULTS_NOTICE =
  "bdk eval: no evals/evals.config.ts, so the defaults apply: maxConcurrency 4, timeoutMs 60000 per case, no judge model (t.judge assertions are skipped)\n";

describe("no-eval-config: evals/*.eval.ts without evals/evals.config.ts", () => {
  // bdk dev: serve --dev, which must not refuse the project either.
  const served = servedFieldProject("no-eval-config", ["--dev"]);

  it("validates with a warning that bdk eval uses its defaults", async () => {
    const result = await scriptedBdk(["validate", "--dir", served.dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("warning  evals/evals.config.ts  evals exist but evals/evals.config.ts does not; bdk eval uses its defaults");
    expect(result.stdout).toContain("order-desk: valid (0 errors, 1 warning)");
  });

  it("info lists the evals, and GET /v1/info is the same object", async () => {
    const result = await scriptedBdk(["info", "--dir", served.dir, "--json"]);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout);
    expect(info.evals).toEqual([
      { id: "orders/processing", file: "evals/orders.eval.ts", tags: ["orders"] },
      { id: "orders/unknown", file: "evals/orders.eval.ts", tags: ["orders"] },
      { id: "smoke", file: "evals/smoke.eval.ts", tags: ["smoke"] },
    ]);
    expect(info.diagnostics).toMatchObject([{ severity: "warning", code: "missing_evals_config", scope: "evals" }]);
    expect((await served.get("/v1/info")).body).toEqual(info);
  });

  it("runs a turn and calls a tool", async () => {
    const run = await scriptedBdk(["run", "--dir", served.dir, "--text", "--message", "lookup_order 'A-1'"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"shipped"');
    const call = await scriptedBdk(["call", "lookup_order", "--dir", served.dir, "--input", '{"orderId":"A-2"}']);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toEqual({ isError: false, result: { orderId: "A-2", status: "processing", items: 1 } });
  });

  it("bdk eval runs every case with the defaults and says which it used; --tag smoke picks the single-case eval", async () => {
    const all = await scriptedBdk(["eval", "--dir", served.dir]);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe(DEFAULTS_NOTICE);
    expect(all.stdout).toContain("3 passed, 0 failed, 0 errored, 0 skipped · 3 cases");

    const smoke = await scriptedBdk(["eval", "--dir", served.dir, "--tag", "smoke", "--json"]);
    expect(smoke.code).toBe(0);
    const report = JSON.parse(smoke.stdout);
    expect(report.cases.map((evalCase: { id: string }) => evalCase.id)).toEqual(["smoke"]);
    expect(report.options).toMatchObject({ tags: ["smoke"], maxConcurrency: 4 });
  });

  it("bdk dev answers tool calls and runs the evals with the defaults", async () => {
    expect((await served.post("/v1/tools/lookup_order", { input: { orderId: "A-1" } })).body).toEqual({
      ok: true,
      isError: false,
      result: { orderId: "A-1", status: "shipped", items: 2 },
    });
    const started = await served.post<{ runId: string; cases: string[] }>("/v1/evals/runs", {});
    expect(started.status).toBe(202);
    expect(started.body.cases).toEqual(["orders/processing", "orders/unknown", "smoke"]);
    const finished = await served.finishedRun(started.body.runId);
    expect(finished.run).toMatchObject({ status: "completed", passed: true });
  });
});

describe("plain-eval-config: evals.config.ts default-exports { maxConcurrency: 20 }", () => {
  let dir: string;
  beforeAll(() => {
    dir = fieldProject("plain-eval-config");
  });

  it("validates clean and runs the evals with maxConcurrency 20, naming no defaults", async () => {
    const validate = await scriptedBdk(["validate", "--dir", dir]);
    expect(validate).toMatchObject({ code: 0, stdout: "faq-bot: valid (0 errors, 0 warnings)\n" });
    const evals = await scriptedBdk(["eval", "--dir", dir, "--json"]);
    expect(evals.code).toBe(0);
    expect(evals.stderr).toBe("");
    const report = JSON.parse(evals.stdout);
    expect(report.options.maxConcurrency).toBe(20);
    expect(report.counts).toMatchObject({ total: 2, passed: 2 });
  });

  it("a field of the wrong type is an eval error naming it; the agent still validates, runs, calls, shows info and serves", async () => {
    const broken = fieldProject("plain-eval-config");
    writeFileSync(path.join(broken, "evals/evals.config.ts"), 'export default { maxConcurrency: "20", retries: 3 };\n');

    const validate = await scriptedBdk(["validate", "--dir", broken]);
    expect(validate.code).toBe(1);
    expect(validate.stdout.split("\n")).toEqual([
      "error    evals/evals.config.ts  maxConcurrency: must be a whole number",
      "         Fields: maxConcurrency, timeoutMs, judge: { model }.",
      "faq-bot: evals invalid, the agent itself can run (1 error, 0 warnings)",
      "",
    ]);

    const evals = await scriptedBdk(["eval", "--dir", broken]);
    expect(evals).toMatchObject({ code: 2, stderr: "bdk eval: the evals have errors:\n  evals/evals.config.ts  maxConcurrency: must be a whole number\n" });

    const run = await scriptedBdk(["run", "--dir", broken, "--text", "--message", "search_faq 'returns'"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Returns are free within 30 days.");
    const call = await scriptedBdk(["call", "search_faq", "--dir", broken, "--input", '{"topic":"shipping"}']);
    expect(JSON.parse(call.stdout)).toEqual({ isError: false, result: { topic: "shipping", answer: "Orders ship within 2 working days." } });
    const info = await scriptedBdk(["info", "--dir", broken]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain("maxConcurrency: must be a whole number");

    const served = await serveField(broken);
    try {
      const started = await served.post("/v1/evals/runs", {});
      expect(started).toMatchObject({ status: 400, body: { ok: false, message: expect.stringContaining("evals/evals.config.ts  maxConcurrency") } });
    } finally {
      await served.server.stop();
    }
  }, 180_000);

  it("warns about keys the eval config does not know", async () => {
    const extra = fieldProject("plain-eval-config");
    writeFileSync(path.join(extra, "evals/evals.config.ts"), "export default { maxConcurrency: 20, retries: 3 };\n");
    const validate = await scriptedBdk(["validate", "--dir", extra]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('warning  evals/evals.config.ts  "retries" is not an eval config key; it is ignored');
  });
});

describe("single-case-evals: defineEval({ tags, description?, test }) beside multi-case evals", () => {
  const served = servedFieldProject("single-case-evals");

  it("validates, lists both forms and selects them by tag", async () => {
    expect(await scriptedBdk(["validate", "--dir", served.dir])).toMatchObject({ code: 0, stdout: "billing-helper: valid (0 errors, 0 warnings)\n" });
    const listed = await scriptedBdk(["eval", "--dir", served.dir, "--list", "--tag", "billing"]);
    expect(listed.stdout.split("\n")).toEqual([
      "billing/paid        #billing         Reads a paid invoice and reports its total.",
      "billing/paid-total  #smoke #billing  A paid invoice's total is quoted.",
      "billing/unpaid      #smoke #billing  An unknown invoice is reported unpaid.",
      "3 cases",
      "",
    ]);
  });

  it("bdk eval --tag smoke runs the single-case and the multi-case evals tagged smoke", async () => {
    const smoke = await scriptedBdk(["eval", "--dir", served.dir, "--tag", "smoke"]);
    expect(smoke.code).toBe(0);
    expect(smoke.stdout).toMatch(/✓ passed\s+greeting/);
    expect(smoke.stdout).toMatch(/✓ passed\s+billing\/unpaid/);
    expect(smoke.stdout).toMatch(/✓ passed\s+billing\/paid-total/);
    expect(smoke.stdout).not.toMatch(/billing\/paid\s/);
    expect(smoke.stdout).toContain("3 passed, 0 failed, 0 errored, 0 skipped · 3 cases");
  });

  it("runs, calls, shows info, and serves eval runs by tag", async () => {
    const run = await scriptedBdk(["run", "--dir", served.dir, "--json", "--message", "get_invoice 'INV-7'"]);
    expect(JSON.parse(run.stdout).toolCalls).toMatchObject([{ name: "get_invoice", input: { invoiceId: "INV-7" }, isError: false }]);
    const call = await scriptedBdk(["call", "get_invoice", "--dir", served.dir, "--input", '{"invoiceId":"INV-7"}']);
    expect(JSON.parse(call.stdout).result).toEqual({ invoiceId: "INV-7", total: "42.00 EUR", paid: true });
    const info = JSON.parse((await scriptedBdk(["info", "--dir", served.dir, "--json"])).stdout);
    expect(info.evals.map((evalCase: { id: string }) => evalCase.id)).toEqual(["billing/unpaid", "billing/paid-total", "billing/paid", "greeting"]);

    const started = await served.post<{ runId: string; cases: string[] }>("/v1/evals/runs", { tags: ["smoke"] });
    expect(started.body.cases).toEqual(["billing/paid-total", "billing/unpaid", "greeting"]);
    expect((await served.finishedRun(started.body.runId)).run).toMatchObject({ status: "completed", passed: true });
  });

  it("an eval file that fails to load is an eval error: the agent still runs, calls, shows info and serves", async () => {
    const broken = fieldProject("single-case-evals");
    writeFileSync(path.join(broken, "evals/broken.eval.ts"), 'import { fixtures } from "./helpers/fixtures.ts";\nexport default fixtures;\n');

    const validate = await scriptedBdk(["validate", "--dir", broken]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toMatch(/^error {4}evals\/broken\.eval\.ts {2}failed to load: .*helpers\/fixtures\.ts/m);
    expect(validate.stdout).toContain("billing-helper: evals invalid, the agent itself can run (1 error, 0 warnings)");

    const evals = await scriptedBdk(["eval", "--dir", broken, "--tag", "smoke"]);
    expect(evals.code).toBe(2);
    expect(evals.stderr).toMatch(/^bdk eval: the evals have errors:\n {2}evals\/broken\.eval\.ts {2}failed to load: /);

    expect((await scriptedBdk(["run", "--dir", broken, "--text", "--message", "hello"])).code).toBe(0);
    expect(JSON.parse((await scriptedBdk(["call", "get_invoice", "--dir", broken, "--input", '{"invoiceId":"INV-7"}'])).stdout).isError).toBe(false);
    const info = await scriptedBdk(["info", "--dir", broken, "--json"]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout).diagnostics).toMatchObject([{ severity: "error", code: "import_failed", file: "evals/broken.eval.ts", scope: "evals" }]);

    const brokenServer = await serveField(broken);
    try {
      expect((await brokenServer.post("/v1/tools/get_invoice", { input: { invoiceId: "INV-7" } })).body).toMatchObject({ isError: false });
      expect(await brokenServer.post("/v1/evals/runs", {})).toMatchObject({
        status: 400,
        body: { message: expect.stringContaining("evals/broken.eval.ts  failed to load") },
      });
    } finally {
      await brokenServer.server.stop();
    }
  }, 180_000);
});
