import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AsyncStore } from "../store/async-store.ts";

/**
 * Hands `lease` on as a stop's last step. A database unreachable at that
 * moment must not stop the shutdown (the store, the turns and MCP servers
 * still close after it): the lease lapses on its own, and another process
 * takes it over once it expires.
 */
export async function releaseOnStop(store: AsyncStore, lease: string, holder: string, logger: Logger): Promise<void> {
  try {
    await store.leases.release(lease, holder);
  } catch (error) {
    logger.warn(`Could not hand on the ${lease} lease at shutdown (${messageOf(error)}); it lapses on its own.`);
  }
}
