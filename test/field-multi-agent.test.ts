/**
 * A parent folder holding two agents, `support` reaching `orders` through a
 * peer connection, driven from the CLI with `--dir .. --slug <agent>` as real
 * projects do, and served as a folder.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { fieldProject, freshStateRoot, scriptedBdk, servedFieldProject } from "./support/field.ts";
import { runBdk } from "./support/run-process.ts";

afterAll(removeTempProjects);

describe("two-agents: --slug picks one agent of a folder", () => {
  const served = servedFieldProject("two-agents");

  it("call from inside one agent's folder: --dir .. --slug support reaches orders through the peer connection", async () => {
    const call = await scriptedBdk(["call", "order_status", "--dir", "..", "--slug", "support", "--input", '{"orderId":"A-1"}'], {
      cwd: path.join(served.dir, "support"),
    });
    expect(call.stderr).toBe("");
    expect(JSON.parse(call.stdout)).toEqual({ isError: false, result: { orderId: "A-1", status: "shipped" } });
  });

  it("without --slug, run, call and eval say the folder holds several agents and list their slugs", async () => {
    for (const args of [["call", "lookup_order"], ["run", "--message", "hi"], ["eval"]]) {
      const result = await scriptedBdk([...args, "--dir", served.dir]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${served.dir} is a folder of 2 agents; choose one with --slug (orders, support)`);
    }
    const unknown = await scriptedBdk(["info", "--dir", served.dir, "--slug", "billing"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`--slug billing: no agent "billing" in ${served.dir}; its agents are orders, support`);
  });

  it("run and eval one agent, keeping its state where bdk serve of the folder keeps it", async () => {
    const stateRoot = freshStateRoot();
    const run = await scriptedBdk(["run", "--dir", served.dir, "--slug", "orders", "--text", "--message", "lookup_order 'A-1'", "--state-root", stateRoot]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"shipped"');
    expect(readdirSync(stateRoot)).toEqual(["orders"]);
    expect(existsSync(path.join(stateRoot, "orders", "bdk.sqlite"))).toBe(true);

    const evals = await scriptedBdk(["eval", "--dir", served.dir, "--slug", "orders"]);
    expect(evals.code).toBe(0);
    expect(evals.stdout).toContain("1 passed, 0 failed, 0 errored, 0 skipped · 1 case");
  });

  it("info and validate with --slug show that agent alone; GET /<slug>/v1/info is the same object", async () => {
    const info = await scriptedBdk(["info", "--dir", served.dir, "--slug", "support", "--json"]);
    expect(info.code).toBe(0);
    const support = JSON.parse(info.stdout);
    expect(support).toMatchObject({ name: "support", connections: [{ name: "orders", kind: "peer", target: "orders" }] });
    expect(support.slug).toBeUndefined();
    // The server adds what only a running agent knows: each connection's client state.
    const connections = support.connections.map((connection: object) => ({ ...connection, status: expect.stringMatching(/^(idle|connected)$/) }));
    expect((await served.get("/support/v1/info")).body).toEqual({ ...support, connections });

    const listed = JSON.parse((await scriptedBdk(["info", "--dir", served.dir, "--json"])).stdout);
    expect(listed.agents.map((agent: { slug: string; name: string }) => [agent.slug, agent.name])).toEqual([
      ["orders", "orders"],
      ["support", "support"],
    ]);

    const one = await scriptedBdk(["validate", "--dir", served.dir, "--slug", "orders"]);
    expect(one.code).toBe(0);
    expect(one.stdout.split("\n").filter(Boolean).at(-1)).toBe("orders (orders): valid (0 errors, 1 warning)");
    expect(one.stdout).not.toContain("support");
    const all = await scriptedBdk(["validate", "--dir", served.dir]);
    expect(all.stdout).toContain("support (support): valid (0 errors, 0 warnings)");
  });

  it("serve mounts both; a tool of support calls orders in the server too", async () => {
    expect((await served.post("/support/v1/tools/order_status", { input: { orderId: "A-1" } })).body).toEqual({
      ok: true,
      isError: false,
      result: { orderId: "A-1", status: "shipped" },
    });
  });
});

describe("two-agents with a broken agent", () => {
  let parent: string;
  beforeAll(() => {
    parent = fieldProject("two-agents");
    writeFileSync(path.join(parent, "support/bot/tools/order_status.ts"), 'import { missing } from "./nowhere.ts";\nexport default missing;\n');
  });

  it("the healthy agent still runs with --slug; the broken one is refused naming its slug, folder and file", async () => {
    const healthy = await scriptedBdk(["call", "lookup_order", "--dir", parent, "--slug", "orders", "--input", '{"orderId":"A-1"}']);
    expect(healthy.code).toBe(0);

    const broken = await scriptedBdk(["run", "--dir", parent, "--slug", "support", "--message", "hi"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`agent "support" (${path.join(parent, "support")}) has errors:`);
    expect(broken.stderr).toMatch(/bot\/tools\/order_status\.ts:1 {2}failed to load: Cannot find module '\.\/nowhere\.ts'\n/);
  });

  it("bdk serve of the folder refuses to start, naming the agent's slug and folder", async () => {
    const serve = await runBdk(["serve", "--dir", parent, "--port", "0", "--state-root", freshStateRoot()], { BDK_MODEL: "scripted" });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(`bdk serve: agent "support" (${path.join(parent, "support")}) has errors:`);
    expect(serve.stderr).toContain("bot/tools/order_status.ts");
  });
});
