/**
 * What a store that several nodes share (Postgres) adds to the async store
 * contract: other nodes' appends, and who owns a session's turns. A store
 * with one process (SQLite) has no `shared`: its in-process event bus sees
 * every append, and the owner is that process.
 */
export interface SessionOwner {
  /** The holder of the session's lease (a node). */
  holder: string;
  /** When the lease lapses unless its holder renews it (the database's clock, ISO 8601). */
  expiresAt: string;
}

export interface SharedStore {
  /**
   * Calls `wake(head)` when the session's log may have grown to `head` on
   * another node (a notification, or the poll that stands in for a lost
   * one). A hint only: the follower reads the events from the table.
   * Returns the function that stops watching.
   */
  watchAppends(sessionId: string, wake: (head: number) => void): () => void;
  /** The session's lease, when a node holds (or last held) one. */
  owner(sessionId: string): Promise<SessionOwner | undefined>;
}
