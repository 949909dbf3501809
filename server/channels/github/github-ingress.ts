/**
 * `POST /v1/channels/<id>` of a GitHub pack channel: verifies
 * `X-Hub-Signature-256` over the raw bytes, refuses replays (a delivery id,
 * or a body, seen within a day), asks the channel's hook, and starts or
 * continues the PR or issue conversation.
 */
import { createHash } from "node:crypto";
import type { GitHubChannelOptions, GitHubHook, GitHubHookContext, GitHubWebhookEvent } from "../../authoring/channels-github.ts";
import { projectLocation } from "../../load/project-frame.ts";
import { BdkError, messageOf } from "../../protocol/errors.ts";
import type { Principal } from "../../protocol/events.ts";
import type { PackRequest } from "../pack-request.ts";
import { checkPrincipal } from "../principal-check.ts";
import { verifyGitHubSignature } from "../signatures.ts";
import { checkPayload, conversationOf, describeEvent, type GitHubHookName, hookFor, sentByBot, subjectFor } from "./github-events.ts";

export async function handleGitHubRequest(request: PackRequest, options: GitHubChannelOptions): Promise<Response> {
  const { headers, rawBody, ledger } = request;
  const secret = options.webhookSecret ?? request.env.GITHUB_WEBHOOK_SECRET;
  const signature = headers.get("x-hub-signature-256");
  if (!(request.devLoopback && !signature)) {
    if (!secret) throw new BdkError("unauthenticated", "Set GITHUB_WEBHOOK_SECRET to receive GitHub webhooks.");
    const check = verifyGitHubSignature({ secret, signature, rawBody });
    if (!check.ok) throw new BdkError("unauthenticated", `GitHub webhook refused: ${check.reason}.`);
  }

  const eventName = headers.get("x-github-event") ?? "";
  const event = parsePayload(rawBody, headers.get("content-type"));
  if (eventName === "ping") return Response.json({ ok: true, pong: true });
  const deliveryId = headers.get("x-github-delivery")?.trim();
  if (!deliveryId) {
    throw new BdkError("invalid_request", "X-GitHub-Delivery is missing: GitHub sends it with every webhook (a hand-made post needs a unique one).");
  }

  const hook = hookFor(eventName, options);
  if (!hook) return Response.json({ ok: true, ignored: true });
  checkPayload(eventName, event);
  // A captured payload replayed under a new delivery id has the same bytes. Per channel: two
  // webhooks (a repository's and its organization's) may deliver the same event to two channels.
  const bodies = `github-body:${request.channelId}`;
  const bodyDigest = createHash("sha256").update(rawBody).digest("hex");
  if ((await ledger.seen("github", deliveryId)) || (await ledger.seen(bodies, bodyDigest))) return Response.json({ ok: true, duplicate: true });
  if (sentByBot(event, options.botName)) return Response.json({ ok: true, ignored: true });

  const ctx: GitHubHookContext = { ...event, eventName, deliveryId, payload: event, host: request.host };
  const decision = await runHook(request, hook, ctx, subjectFor(hook.name, event));
  if (!decision) return Response.json({ ok: true, ignored: true });
  const conversation = conversationOf(eventName, event);
  const described = decision.message ?? describeEvent(eventName, event, conversation);
  // Claimed in the transaction that stores the message: two copies never both start a turn,
  // and a delivery whose message could not be stored is taken again when GitHub redelivers it.
  const keys = [
    { source: "github", id: deliveryId },
    { source: bodies, id: bodyDigest },
  ];
  const claimed = await ledger.claim(keys, () =>
    request.send({
      message: decision.context ? `${described}\n\n${decision.context}` : described,
      continuationToken: conversation.continuationToken,
      state: conversation.state,
      title: conversation.title,
      principal: decision.auth,
      admission: "coalesce",
    }),
  );
  if (claimed.duplicate) return Response.json({ ok: true, duplicate: true });
  const turn = claimed.result;
  return Response.json({ ok: true, sessionId: turn.sessionId, continuationToken: turn.continuationToken }, { status: 202 });
}

interface Decision {
  auth: Principal;
  message?: string;
  context?: string;
}

/**
 * Runs the project's hook. A throw, or a result the pack cannot use, is the
 * project's bug: logged with the hook's name and where it threw, and
 * answered 500 (GitHub shows the failed delivery, which can be redelivered).
 */
async function runHook(
  request: PackRequest,
  hook: { name: GitHubHookName; hook: GitHubHook },
  ctx: GitHubHookContext,
  subject: Record<string, unknown>,
): Promise<Decision | undefined> {
  const label = `${hook.name} hook of GitHub channel "${request.channelId}"`;
  try {
    const result: unknown = await hook.hook(ctx, subject);
    if (result === null || result === undefined) return undefined;
    if (typeof result !== "object" || !("auth" in result)) {
      throw new BdkError("invalid_request", `${hook.name} must return null (ignore the event) or { auth, message?, context? }.`);
    }
    const decision = result as { auth: unknown; message?: unknown; context?: unknown };
    // `auth: null` is what defaultGitHubAuth gives for a bot: nobody to act for.
    if (decision.auth === null || decision.auth === undefined) return undefined;
    const auth = checkPrincipal(decision.auth, `${hook.name}'s result`);
    return { auth, message: textField(decision.message, hook.name, "message"), context: textField(decision.context, hook.name, "context") };
  } catch (error) {
    const where = projectLocation(error, request.rootDir);
    request.logError(`The ${label} failed${where ? ` at ${where}` : ""}: ${messageOf(error)}`);
    throw new BdkError("internal", `The ${label} failed; the agent's log has the details.`);
  }
}

function textField(value: unknown, hook: GitHubHookName, field: string): string | undefined {
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  throw new BdkError("invalid_request", `${hook}'s result: ${field} must be a string, got ${typeof value}.`);
}

/** JSON, or the `payload=` form GitHub sends for `application/x-www-form-urlencoded` hooks. */
function parsePayload(rawBody: Buffer, contentType: string | null): GitHubWebhookEvent {
  const text = rawBody.toString("utf8");
  const json = contentType?.includes("application/x-www-form-urlencoded") ? (new URLSearchParams(text).get("payload") ?? "") : text;
  try {
    const value = JSON.parse(json) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as GitHubWebhookEvent;
  } catch {
    // reported below
  }
  throw new BdkError("invalid_request", "The GitHub webhook body is not a JSON object.");
}
