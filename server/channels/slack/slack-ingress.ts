/**
 * `POST /v1/channels/<id>` of a Slack pack channel: the Events API over HTTP.
 * Verifies the signature, answers the URL challenge, and hands each message
 * to the conversation of its thread (coalescing while a turn runs). Slack
 * retries carry an event id already seen and never start a second turn.
 */
import type { SlackChannelOptions } from "../../authoring/channels-slack.ts";
import { BdkError } from "../../protocol/errors.ts";
import type { PackRequest } from "../pack-request.ts";
import { verifySlackSignature } from "../signatures.ts";
import { slackCredentials } from "./slack-client.ts";
import { isStopCommand, parseSlackPayload, SLACK_DM_THREADS } from "./slack-events.ts";

export async function handleSlackRequest(request: PackRequest, options: SlackChannelOptions): Promise<Response> {
  const { headers, rawBody } = request;
  const credentials = slackCredentials(options, request.env);
  const signature = headers.get("x-slack-signature");
  if (credentials.signingSecret) {
    const check = verifySlackSignature({
      secret: credentials.signingSecret,
      timestamp: headers.get("x-slack-request-timestamp"),
      signature,
      rawBody,
      now: request.now(),
    });
    if (!check.ok) throw new BdkError("unauthenticated", `Slack request refused: ${check.reason}.`);
  } else if (!(request.devLoopback && !signature)) {
    throw new BdkError("unauthenticated", `Set ${credentials.signingSecretName} to receive Slack events.`);
  }

  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString("utf8"));
  } catch {
    throw new BdkError("invalid_request", "The Slack channel takes Events API JSON payloads.");
  }
  const inbound = parseSlackPayload(payload, { dmThreads: options.continuation === SLACK_DM_THREADS });
  if (inbound.kind === "challenge") return Response.json({ challenge: inbound.challenge });
  if (inbound.kind === "ignore") return Response.json({ ok: true, ignored: inbound.reason });
  // The event id is claimed with the message it carried, in one transaction.
  const claimed = await request.ledger.claim([{ source: "slack", id: inbound.eventId }], async () => {
    if (isStopCommand(inbound.text)) return { ok: true, stopped: await request.stop(inbound.conversationKey) };
    const turn = await request.send({
      message: inbound.text,
      continuationToken: inbound.conversationKey,
      state: inbound.state,
      title: inbound.text.split("\n")[0].slice(0, 80),
      principal: { type: "user", id: `slack:${inbound.state.team}/${inbound.state.user}` },
      admission: "coalesce",
    });
    return { ok: true, sessionId: turn.sessionId };
  });
  return Response.json(claimed.duplicate ? { ok: true, duplicate: true } : claimed.result);
}
