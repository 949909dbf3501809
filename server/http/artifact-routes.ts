import { BdkError } from "../protocol/errors.ts";
import { type Principal, samePrincipal } from "../protocol/events.ts";
import type { ArtifactRow } from "../store/types.ts";
import { type AgentRequest, type AgentRouteHandler, visibleOwner } from "./agent-routes.ts";
import { limitParam } from "./query.ts";
import { json } from "./respond.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

/**
 * Artifacts are the agent's shelf (one record per kind + key). One tagged in
 * a session belongs to that session's principal, like the session itself, and
 * stays theirs after the session is deleted: other callers neither list nor
 * read it. Records tagged outside any session (schedules, direct tool calls)
 * are visible to every admitted caller; dev on loopback and anonymous see all.
 */
function visible(row: ArtifactRow, to: Principal | undefined): boolean {
  return !to || !row.owner || samePrincipal(row.owner, to);
}

async function requireArtifact(req: AgentRequest): Promise<ArtifactRow> {
  const row = await req.opened.store.artifacts.get(req.params.id);
  if (!row) throw new BdkError("not_found", `No artifact ${req.params.id}.`);
  if (!visible(row, visibleOwner(req))) {
    throw new BdkError("forbidden", `Artifact ${req.params.id} was recorded in another principal's session.`);
  }
  return row;
}

/** `GET /v1/artifacts?kind=&key=&limit=`, `GET /v1/artifacts/:id`, `GET /v1/artifacts/:id/content`. */
export const artifactRoutes = {
  async listArtifacts(req) {
    const url = new URL(req.request.url);
    const limit = limitParam(url, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT });
    const rows = await req.opened.store.artifacts.list({
      kind: url.searchParams.get("kind") ?? undefined,
      key: url.searchParams.get("key") ?? undefined,
      limit,
      visibleTo: visibleOwner(req),
    });
    return json({ ok: true, artifacts: rows });
  },

  async getArtifact(req) {
    return json({ ok: true, artifact: await requireArtifact(req) });
  },

  async artifactContent(req) {
    const row = await requireArtifact(req);
    const stored = await req.opened.store.artifacts.contents(row.id);
    if (!stored) throw new BdkError("not_found", `Artifact ${row.id} has no contents.`);
    const filename = `${row.kind}-${row.key}`.replace(/[^\w.-]+/g, "_");
    return new Response(new Uint8Array(stored.contents), {
      headers: {
        "content-type": stored.contentType ?? "text/plain; charset=utf-8",
        "content-length": String(stored.contents.length),
        "content-disposition": `inline; filename="${filename}"`,
        // Contents are model- or user-written and served from the playground's origin:
        // no sniffing, and an HTML artifact renders without scripts in an opaque origin.
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
      },
    });
  },
} satisfies Record<string, AgentRouteHandler>;
