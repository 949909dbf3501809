/** An append (or a transaction) by a holder whose session lease was taken over or lapsed: nothing was stored. */
export class LeaseLostError extends Error {
  constructor(
    readonly sessionId: string,
    readonly token: number,
    why: string,
  ) {
    super(`The holder of token ${token} no longer owns session ${sessionId}: ${why}; nothing was appended.`);
    this.name = "LeaseLostError";
  }
}

/** Why the session's owner row (`token`, whether its lease is `live`; none: no row) refuses the holder of `token`; undefined when it holds. */
export function ownerRefusal(owner: { token: string; live: boolean } | undefined, token: number): string | undefined {
  if (!owner) return "the session has no owner";
  if (Number(owner.token) !== token) return `the session was taken over (token ${owner.token})`;
  return owner.live ? undefined : "its lease lapsed";
}
