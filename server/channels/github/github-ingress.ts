/**
 * `POST /v1/channels/<id>` of a GitHub pack channel: verifies
 * `X-Hub-Signature-256`, drops redeliveries (`X-GitHub-Delivery`), asks the
 * channel's hook, and starts or continues the PR or issue conversation.
 */
import type { GitHubChannelOptions, GitHubWebhookEvent } from "../../authoring/channels-github.ts";
import { BdkError } from "../../protocol/errors.ts";
import type { Claimed } from "../delivery-ledger.ts";
import type { PackRequest } from "../pack-request.ts";
import { verifyGitHubSignature } from "../signatures.ts";
import { conversationOf, describeEvent, hookFor, sentByBot } from "./github-events.ts";

export async function handleGitHubRequest(request: PackRequest, options: GitHubChannelOptions): Promise<Response> {
  const { headers, rawBody } = request;
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
  const delivery = headers.get("x-github-delivery");
  const duplicate = () => Response.json({ ok: true, duplicate: true });
  if (delivery && request.ledger.seen("github", delivery)) return duplicate();
  // The delivery id is claimed with what the delivery stored (its message, or nothing when ignored), in one transaction.
  const handled = <T>(handle: () => T): Claimed<T> =>
    delivery ? request.ledger.claim("github", delivery, handle) : { duplicate: false, result: handle() };
  const ignored = () => {
    const claimed = handled(() => ({ ok: true, ignored: true }));
    return claimed.duplicate ? duplicate() : Response.json(claimed.result);
  };

  const hook = hookFor(eventName, options);
  const conversation = conversationOf(eventName, event);
  if (!hook || !conversation || sentByBot(event, options.botName)) return ignored();
  const decision = await hook(event);
  if (!decision) return ignored();

  const claimed = handled(() =>
    request.send({
      message: decision.message ?? describeEvent(eventName, event, conversation),
      continuationToken: conversation.continuationToken,
      state: conversation.state,
      title: conversation.title,
      principal: decision.auth,
      admission: "coalesce",
    }),
  );
  if (claimed.duplicate) return duplicate();
  const turn = claimed.result;
  return Response.json({ ok: true, sessionId: turn.sessionId, continuationToken: turn.continuationToken }, { status: 202 });
}

/** JSON, or the `payload=` form GitHub sends for `application/x-www-form-urlencoded` hooks. */
function parsePayload(rawBody: string, contentType: string | null): GitHubWebhookEvent {
  const text = contentType?.includes("application/x-www-form-urlencoded")
    ? (new URLSearchParams(rawBody).get("payload") ?? "")
    : rawBody;
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as GitHubWebhookEvent;
  } catch {
    // reported below
  }
  throw new BdkError("invalid_request", "The GitHub webhook body is not a JSON object.");
}
