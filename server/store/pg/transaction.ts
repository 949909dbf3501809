import type pg from "pg";

/**
 * Runs `work` in one transaction on a connection of its own. A connection
 * the server drops meanwhile (a node paused past
 * `idle_in_transaction_session_timeout`) is an `error` event on the client
 * while it is checked out: caught here, so it fails this call (the next
 * query rejects) instead of the process, and the connection is discarded.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    if (!broken) await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}
