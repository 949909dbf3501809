/** What the Slack and GitHub packs get from the channel host for one webhook request. */
import type { DeliveryLedger } from "./delivery-ledger.ts";
import type { ConversationMessage, ConversationTurn } from "./conversations.ts";

export interface PackRequest {
  headers: Headers;
  rawBody: string;
  env: Record<string, string | undefined>;
  /** `--dev` and a direct loopback caller: unsigned posts are accepted. */
  devLoopback: boolean;
  now(): Date;
  ledger: DeliveryLedger;
  /** Starts or continues the conversation behind `continuationToken` on this channel. */
  send(input: Omit<ConversationMessage, "channelId" | "defaultState">): ConversationTurn;
  /** Stops the running turn of the conversation behind the key; false when nothing ran. */
  stop(continuationToken: string): boolean;
}
