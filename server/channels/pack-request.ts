/** What the Slack and GitHub packs get from the channel host for one webhook request. */
import type { HostServices } from "../authoring/types.ts";
import type { DeliveryLedger } from "./delivery-ledger.ts";
import type { ConversationMessage, ConversationTurn } from "./conversations.ts";

export interface PackRequest {
  channelId: string;
  headers: Headers;
  /** The body as it arrived: signatures are computed over these bytes. */
  rawBody: Buffer;
  env: Record<string, string | undefined>;
  /** `--dev` and a direct loopback caller: unsigned posts are accepted. */
  devLoopback: boolean;
  now(): Date;
  ledger: DeliveryLedger;
  /** Starts or continues the conversation behind `continuationToken` on this channel. */
  send(input: Omit<ConversationMessage, "channelId" | "defaultState">): Promise<ConversationTurn>;
  /** Stops the running turn of the conversation behind the key; false when nothing ran. */
  stop(continuationToken: string): Promise<boolean>;
  /** What the project's hooks see as `ctx.host`. */
  host: HostServices;
  /** The project root, to name where a hook threw. */
  rootDir: string;
  /** Reports a failure of the project's hook code in the agent's log. */
  logError(message: string): void;
}
