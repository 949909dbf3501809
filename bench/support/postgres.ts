/** The database a Postgres bench runs on: DATABASE_URL, or a throwaway cluster (scripts/postgres.sh) that `stop` removes. */
import { execFileSync } from "node:child_process";
import path from "node:path";

const script = path.join(import.meta.dirname, "..", "..", "scripts", "postgres.sh");

export function benchDatabase(): { url: string; stop(): void } {
  const given = process.env.DATABASE_URL;
  if (given) return { url: given, stop: () => undefined };
  const vars = Object.fromEntries(
    execFileSync("bash", [script, "start"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  return { url: vars.DATABASE_URL, stop: () => execFileSync("bash", [script, "stop", vars.BDK_PG_DIR]) };
}
