/**
 * Restart recovery, and on a shared database its repetition: the sweeper.
 * At start it recovers what a previous process left (recovery.ts); where
 * other nodes share the store (`TurnLeases.sweepEveryMs`) it sweeps again
 * on a timer, ending the turns of nodes whose lease lapsed and adopting the
 * ones parked on an approval, which then wait in the turn chain for their
 * decision.
 */
import { messageOf } from "../protocol/errors.ts";
import { recoverTurns, type RecoveryOptions } from "./recovery.ts";
import type { TurnChain } from "./turn-chain.ts";

export interface LeaseSweeperOptions extends RecoveryOptions {
  /** Where adopted turns wait, and recovered messages' files are written before the session's next turn. */
  chain: TurnChain;
}

export class LeaseSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly options: LeaseSweeperOptions) {}

  /**
   * The first sweep, then (on a shared store) the timer. Returns how many
   * turns the first sweep ended. On a shared store a failed first sweep
   * (Postgres briefly unreachable) is logged, not thrown: the next retries.
   */
  async start(): Promise<number> {
    const every = this.options.leases.sweepEveryMs;
    const interrupted = await this.sweep().catch((error: unknown) => {
      if (every === undefined) throw error;
      return this.failed(error);
    });
    if (every !== undefined && !this.timer) {
      this.timer = setInterval(() => {
        // One sweep at a time: a slow database never piles them up.
        this.sweeping ??= this.sweep()
          .then((ended) => {
            if (ended > 0) this.options.logger.warn(`Ended ${ended} turn(s) of a node whose lease lapsed.`);
            return ended;
          })
          .catch((error: unknown) => this.failed(error))
          .finally(() => (this.sweeping = undefined));
      }, every);
      this.timer.unref();
    }
    return interrupted;
  }

  /** No sweep starts any more; resolves once the one in flight has ended. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  private failed(error: unknown): number {
    this.options.logger.error(`The sweep of lapsed turns failed: ${messageOf(error)}`);
    return 0;
  }

  private async sweep(): Promise<number> {
    const { chain, workspaces } = this.options;
    const { interrupted, parked, files } = await recoverTurns(this.options);
    for (const adopted of parked) chain.park(adopted);
    for (const { session, files: sent } of files) {
      chain.beforeNextTurn(session.id, `Could not write the workspace files of session ${session.id} after a restart`, () => workspaces.write(session, sent));
    }
    return interrupted;
  }
}
