/**
 * `GET /v1/artifacts`, `/v1/artifacts/:id` and `/v1/artifacts/:id/content`
 * on a real server: filters, contents with their type, and an artifact of
 * one principal's session hidden from another principal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serveProject } from "./support/served-project.ts";

const TOKEN = "artifact-secret";
const served = serveProject(
  {
    "bot/instructions.md": "You publish reports.",
    "bot/artifacts.ts": `import { defineArtifacts } from "@cursor/bdk/artifacts";
export default defineArtifacts({ kinds: { report: { description: "An HTML report." }, note: { description: "A note." } } });`,
    "bot/tools/publish_report.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Publish an HTML report.",
  inputSchema: z.object({ key: z.string(), kind: z.string().default("report") }),
  async execute({ key, kind }, ctx) {
    return ctx.artifacts.tag({ kind, key, title: "Report " + key, data: { key }, contents: "<h1>" + key + "</h1>", contentType: "text/html" });
  },
});`,
  },
  { authToken: TOKEN },
);

/** With `bearer`: the token's service principal. Without: `user:local` (loopback). */
const call = served.call;

async function publish(key: string, options: { bearer?: boolean; sessionId?: string; kind?: string }) {
  const response = await call("/v1/tools/publish_report", {
    method: "POST",
    bearer: options.bearer,
    body: JSON.stringify({ input: { key, kind: options.kind }, sessionId: options.sessionId }),
  });
  const body = (await response.json()) as { isError: boolean; result: { id: string } };
  expect(body.isError).toBe(false);
  return body.result.id;
}

describe("artifacts API", () => {
  let mine: string;
  let shared: string;
  let note: string;
  let session: string;

  beforeAll(async () => {
    const created = (await (
      await call("/v1/session", { method: "POST", bearer: true, body: JSON.stringify({ message: "hello" }) })
    ).json()) as { sessionId: string };
    session = created.sessionId;
    mine = await publish("q3", { bearer: true, sessionId: session });
    shared = await publish("weekly", {});
    note = await publish("n1", { kind: "note" });
  });

  it("lists records newest first, filtered by kind and key", async () => {
    const all = (await (await call("/v1/artifacts", { bearer: true })).json()) as { artifacts: { id: string }[] };
    expect(all.artifacts.map((artifact) => artifact.id)).toEqual([note, shared, mine]);
    const reports = (await (await call("/v1/artifacts?kind=report&key=weekly", { bearer: true })).json()) as {
      artifacts: { id: string; title: string; data: unknown; contentType: string; size: number }[];
    };
    expect(reports.artifacts).toEqual([
      expect.objectContaining({ id: shared, title: "Report weekly", data: { key: "weekly" }, contentType: "text/html", size: 15 }),
    ]);
  });

  it("serves contents with their content type, sandboxed", async () => {
    const response = await call(`/v1/artifacts/${mine}/content`, { bearer: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(response.headers.get("content-security-policy")).toContain("sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("<h1>q3</h1>");
  });

  it("hides an artifact of another principal's session: absent from the list, 403 to read", async () => {
    const listed = (await (await call("/v1/artifacts")).json()) as { artifacts: { id: string }[] };
    expect(listed.artifacts.map((artifact) => artifact.id)).toEqual([note, shared]);
    for (const route of [`/v1/artifacts/${mine}`, `/v1/artifacts/${mine}/content`]) {
      const response = await call(route);
      expect(response.status, route).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe("forbidden");
    }
    const record = (await (await call(`/v1/artifacts/${mine}`, { bearer: true })).json()) as { artifact: { sessionId: string } };
    expect(record.artifact.sessionId).toMatch(/^ses_/);
  });

  it("keeps an artifact its owner's after the session is deleted", async () => {
    expect((await call(`/v1/session/${session}`, { method: "DELETE", bearer: true })).status).toBe(200);
    const listed = (await (await call("/v1/artifacts")).json()) as { artifacts: { id: string }[] };
    expect(listed.artifacts.map((artifact) => artifact.id)).not.toContain(mine);
    expect((await call(`/v1/artifacts/${mine}/content`)).status).toBe(403);
    const own = (await (await call(`/v1/artifacts/${mine}`, { bearer: true })).json()) as {
      artifact: { sessionId: string | null; owner: { type: string; id: string } };
    };
    expect(own.artifact.sessionId).toBeNull();
    expect(own.artifact.owner).toEqual({ type: "service", id: expect.stringMatching(/^bearer-/) });
  });

  it("keeps another principal's tag of the same kind + key apart: it neither overwrites nor takes the record", async () => {
    const local = (await (await call("/v1/session", { method: "POST", body: JSON.stringify({ message: "hello" }) })).json()) as { sessionId: string };
    const localCopy = await publish("q3", { sessionId: local.sessionId });
    expect(localCopy).not.toBe(mine);
    const bearers = (await (await call(`/v1/artifacts/${mine}`, { bearer: true })).json()) as { artifact: { owner: { type: string } } };
    expect(bearers.artifact.owner.type).toBe("service");
    expect((await call(`/v1/artifacts/${mine}`)).status).toBe(403);
    const locals = (await (await call(`/v1/artifacts/${localCopy}`)).json()) as { artifact: { owner: unknown } };
    expect(locals.artifact.owner).toEqual({ type: "user", id: "local" });
  });

  it("answers unknown ids and bad limits with the error envelope", async () => {
    const missing = await call("/v1/artifacts/art_nope", { bearer: true });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, error: "not_found" });
    const badLimit = await call("/v1/artifacts?limit=0", { bearer: true });
    expect(badLimit.status).toBe(400);
    const body = (await badLimit.json()) as { error: string; message: string };
    expect(body.error).toBe("invalid_request");
    expect(body.message).toContain("limit");
  });
});
