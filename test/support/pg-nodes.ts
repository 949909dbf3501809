/**
 * For a test file of `bdk serve` on Postgres: a database of its own (made
 * before the file's tests, dropped after them) and server nodes of `dir` on
 * it, each with a state root of its own, all stopped after the file.
 */
import { afterAll, beforeAll } from "vitest";
import { type RunningServer, startServer } from "./bdk-server.ts";
import { type TestDatabase, testDatabase } from "./postgres.ts";

export function pgNodes(dir: string) {
  let database: TestDatabase | undefined;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    database = await testDatabase();
  }, 300_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 120_000);
  const ready = (): TestDatabase => {
    if (!database) throw new Error("pgNodes: the database is made in beforeAll; use it inside a test.");
    return database;
  };
  return {
    database: ready,
    /** A node on the database; `env` adds to (or overrides) its environment. */
    async node(env: Record<string, string> = {}): Promise<RunningServer> {
      const server = await startServer({ dir, env: { BDK_DATABASE_URL: ready().url, ...env } });
      servers.push(server);
      return server;
    },
  };
}
