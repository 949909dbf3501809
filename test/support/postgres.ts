/**
 * A real PostgreSQL for a test file: a fresh database on the suite's cluster
 * (`BDK_TEST_DATABASE_URL`, started by scripts/test.sh), or, when the file
 * runs alone, on a throwaway cluster started here with scripts/postgres.sh.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { KIT_DIR } from "./bdk-server.ts";

const run = promisify(execFile);
const SCRIPT = path.join(KIT_DIR, "scripts", "postgres.sh");

export interface TestDatabase {
  /** A connection string to a database of its own. */
  url: string;
  /** Another empty database on the same cluster (a test that wants a store of its own); dropped with the first. */
  fresh(): Promise<string>;
  /** Drops the databases (and stops the cluster when this file started it). */
  drop(): Promise<void>;
}

export async function testDatabase(): Promise<TestDatabase> {
  let clusterUrl = process.env.BDK_TEST_DATABASE_URL;
  let ownCluster: string | undefined;
  if (!clusterUrl) {
    const { stdout } = await run("bash", [SCRIPT, "start"], { timeout: 300_000 });
    const vars = Object.fromEntries(stdout.trim().split("\n").map((line) => line.split(/=(.*)/s).slice(0, 2)));
    clusterUrl = vars.DATABASE_URL;
    ownCluster = vars.BDK_PG_DIR;
  }
  const names: string[] = [];
  const create = async (): Promise<string> => {
    const name = `bdk_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: clusterUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    names.push(name);
    const url = new URL(clusterUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    url: await create(),
    fresh: create,
    async drop() {
      const client = new pg.Client({ connectionString: clusterUrl });
      await client.connect();
      try {
        // Not WITH (FORCE): a pool's end() resolves before its connections have closed, and a
        // connection killed while closing is an uncaught error in the test. Wait for them instead.
        for (const name of names) {
          for (;;) {
            try {
              await client.query(`DROP DATABASE IF EXISTS ${name}`);
              break;
            } catch (error) {
              if ((error as { code?: string }).code !== "55006") throw error;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        }
      } finally {
        await client.end();
      }
      if (ownCluster) await run("bash", [SCRIPT, "stop", ownCluster]);
    },
  };
}
