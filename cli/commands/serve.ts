import path from "node:path";
import { BearerTokenError } from "../../server/auth/policies.ts";
import { consoleAsJsonLines, formatLogLine } from "../../server/host/logger.ts";
import { type Command, type CommandIO, type FlagSpec, type ParsedArgs, stringFlag, UsageError } from "../command.ts";
import { OBSERVABILITY_FLAGS, observabilityOptions } from "../observability-flags.ts";

const SERVE_FLAGS: FlagSpec[] = [
  { name: "dir", type: "string", description: "a project, or a folder of projects", default: "." },
  { name: "host", type: "string", description: "interface to listen on; HOST when the flag is absent", default: "127.0.0.1" },
  { name: "port", type: "string", description: "port to listen on; PORT when the flag is absent", default: "3000" },
  { name: "mode", type: "string", description: "single | multi (default: single for a project, multi for a folder)" },
  { name: "dev", type: "boolean", description: "dev mode: dev routes, every principal's sessions, scripted fallback" },
  { name: "bearer-token", type: "strings", description: "accept Authorization: Bearer <token> (repeatable; prefer BDK_BEARER_TOKEN: argv is visible to other users)" },
  { name: "allow-anonymous", type: "boolean", description: "admit everyone as user:anonymous (demo only)" },
  { name: "playground", type: "boolean", description: "serve the playground and the agents index (--no-playground)", default: true },
  { name: "schedules", type: "boolean", description: "fire schedules (--no-schedules)", default: true },
  { name: "docs", type: "boolean", description: "serve the documentation at /docs (--no-docs)", default: true },
  { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
  { name: "database-url", type: "string", description: "store sessions in Postgres (postgres://…), shared by every server given it; BDK_DATABASE_URL when the flag is absent" },
  { name: "model", type: "string", description: "model id for every agent, overrides BDK_MODEL" },
  ...OBSERVABILITY_FLAGS,
];

/** `--bearer-token` values, else `BDK_BEARER_TOKEN`, and where they came from (for the message when the server refuses one). */
function bearerTokens(args: ParsedArgs, io: CommandIO): { tokens?: string[]; source: string } {
  const flagged = args.flags["bearer-token"] as string[] | undefined;
  if (flagged) return { tokens: flagged, source: "--bearer-token" };
  const fromEnv = io.env.BDK_BEARER_TOKEN;
  return { tokens: fromEnv === undefined ? undefined : [fromEnv], source: "BDK_BEARER_TOKEN" };
}

async function runServer(args: ParsedArgs, io: CommandIO, dev: boolean): Promise<number> {
  // PORT and HOST (from the environment or the project's .env) stand in for absent flags, as hosting platforms expect.
  const portText = stringFlag(args, "port") ?? io.env.PORT ?? "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`${stringFlag(args, "port") === undefined ? "PORT" : "--port"} must be a port number (got "${portText}")`);
  }
  const mode = stringFlag(args, "mode");
  if (mode !== undefined && mode !== "single" && mode !== "multi") throw new UsageError("--mode is single or multi");
  const bearer = bearerTokens(args, io);
  const { logFormat = "text", otel } = observabilityOptions(args);
  const log = (line: string) => io.stderr.write(`${line}\n`);
  const restoreConsole =
    logFormat === "json"
      ? consoleAsJsonLines((level, line) => (level === "warn" || level === "error" ? io.stderr : io.stdout).write(`${line}\n`))
      : undefined;
  // With --log-format json every line is JSON, the addresses printed at start too.
  const announce = (line: string) =>
    io.stdout.write(`${logFormat === "json" ? formatLogLine({ level: "info", message: line }, "json") : line}\n`);

  try {
    const { serve } = await import("../../web/serve.ts");
    const handle = await serve(path.resolve(io.cwd, stringFlag(args, "dir") ?? "."), {
      host: stringFlag(args, "host") ?? (io.env.HOST || undefined),
      port,
      mode,
      dev: dev || args.flags.dev === true,
      authToken: bearer.tokens,
      allowAnonymous: args.flags["allow-anonymous"] === true,
      playground: args.flags.playground !== false,
      docs: args.flags.docs !== false,
      schedules: args.flags.schedules !== false,
      stateRoot: stringFlag(args, "state-root"),
      databaseUrl: stringFlag(args, "database-url") ?? (io.env.BDK_DATABASE_URL || undefined),
      model: stringFlag(args, "model"),
      env: io.env,
      log,
      logFormat,
      otel,
    }).catch((error: unknown) => {
      // The server checks the tokens; the message names where this one came from.
      if (error instanceof BearerTokenError) throw new UsageError(`${bearer.source} ${error.problem}: give a token (a long random string) or leave it unset`);
      throw error;
    });
    for (const { slug, opened } of handle.agents) {
      const base = handle.agents.length === 1 && mode !== "multi" ? handle.url : `${handle.url}/${slug}`;
      announce(`${opened.agent.name}: ${base}/playground  (API ${base}/v1)`);
    }
    announce(`Serving at ${handle.url} — Ctrl-C to stop.`);

    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    await handle.close();
  } finally {
    restoreConsole?.();
  }
  return 0;
}

export const serveCommand: Command = {
  name: "serve",
  summary: "Serve a project (or a folder of projects) over HTTP with the playground",
  usage: "bdk serve [--dir D] [--host H] [--port P] [--mode single|multi] [--dev] [--bearer-token T]",
  flags: SERVE_FLAGS,
  run: (args, io) => runServer(args, io, false),
};

export const devCommand: Command = {
  name: "dev",
  summary: "serve --dev: dev routes, scripted-model fallback, every principal's sessions",
  usage: "bdk dev [--dir D] [--port P] [serve flags]",
  flags: SERVE_FLAGS,
  run: (args, io) => runServer(args, io, true),
};
