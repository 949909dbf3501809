/**
 * The conformance bots (written against the published kit's docs) and our own
 * examples must load unchanged: zero errors from validate, the expected surface from info.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectInfo } from "../server/discover/info.ts";
import { loadAgent } from "../server/load/load-agent.ts";
import { copyProject, KIT_ROOT, removeTempProjects } from "../server/load/testing/temp-project.ts";
import { CONFORMANCE_DIR } from "./support/conformance.ts";

const CONFORMANCE = CONFORMANCE_DIR;

afterAll(removeTempProjects);

async function load(source: string) {
  const result = await loadAgent(copyProject(source));
  return { ...result, info: projectInfo(result.agent!, result.diagnostics, new Date("2025-01-06T07:00:00Z")) };
}

describe("conformance bots load unchanged", () => {
  it("quickstart: prompt descriptions, effect, needsApproval, dryRunResult, the readiness eval", async () => {
    const { agent, diagnostics, info } = await load(path.join(CONFORMANCE, "quickstart"));
    expect(diagnostics).toEqual([]);
    expect(info.name).toBe("pr-reviewer");
    expect(info.model).toEqual({ id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }], isDefault: false });
    expect(info.tools.map((tool) => [tool.name, tool.effect, tool.needsApproval])).toEqual([
      ["approve_pr", "write", true],
      ["inspect_pr", "read", false],
    ]);
    const inspect = agent!.tools.find((tool) => tool.name === "inspect_pr")!;
    expect(inspect.description).toBe("Inspect a pull request before approval.\nReturns its complexity (trivial, moderate or large) and the changed files.");
    expect(inspect.parseInput({ prUrl: "nope" })).toEqual({ ok: false, message: "prUrl: Invalid URL" });
    const approve = agent!.tools.find((tool) => tool.name === "approve_pr")!;
    expect(approve.dryRunResult?.({ prUrl: "https://github.com/acme/checkout/pull/42", reason: "ok" })).toEqual({
      approved: false,
      prUrl: "https://github.com/acme/checkout/pull/42",
      dryRun: true,
    });
    expect(info.evals.map((evalCase) => evalCase.id)).toEqual(["readiness"]);
    expect(agent!.evals?.config).toEqual({ maxConcurrency: 20 });
  });

  it("scheduled: markdown and handler schedules, a channel with state and events, a reminder handler", async () => {
    const { agent, diagnostics, info } = await load(path.join(CONFORMANCE, "scheduled"));
    expect(diagnostics).toEqual([]);
    expect(info.name).toBe("ops-digest");
    expect(info.tools.map((tool) => tool.name)).toEqual(["open_incidents"]);
    expect(info.channels).toEqual([
      {
        id: "webhook",
        routes: [
          {
            method: "POST",
            path: "/v1/channels/webhook/alert",
            description: "Start a conversation about an alert.",
            bodySchema: expect.objectContaining({ required: ["source", "message"] }),
          },
        ],
      },
    ]);
    expect(info.schedules).toEqual([
      { name: "alert-sweep", cron: "*/30 * * * *", kind: "handler", nextFireAt: "2025-01-06T07:30:00.000Z" },
      { name: "daily-summary", cron: "0 9 * * 1-5", kind: "markdown", nextFireAt: "2025-01-06T09:00:00.000Z" },
    ]);
    expect(info.reminders).toEqual([{ name: "ci_recheck" }]);
    expect(agent!.channels.get("webhook")?.events?.["message.completed"]).toBeTypeOf("function");
    expect(agent!.schedules.get("daily-summary")?.markdown).toBe("Pull open incidents and post a summary to the metrics endpoint.");
  });
});

describe("bot-examples validate with zero errors", () => {
  for (const example of ["hello", "pr-approver", "kitchen-sink"]) {
    it(example, async () => {
      const { diagnostics, info } = await load(path.join(KIT_ROOT, "bot-examples", example));
      expect(diagnostics).toEqual([]);
      expect(info.name).toBe(example);
      expect(info.evals.length).toBeGreaterThan(0);
    });
  }
});
