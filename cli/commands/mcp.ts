import { spawn } from "node:child_process";
import path from "node:path";
import { booleanFlag, type Command, type CommandIO, type ParsedArgs, stringFlag, UsageError } from "../command.ts";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "Authorize a remote MCP connection that uses OAuth (bdk mcp oauth <connection>)",
  usage: "bdk mcp oauth <connection> [--dir D] [--state-root S] [--no-open]",
  flags: [
    { name: "dir", type: "string", description: "project directory", default: "." },
    { name: "state-root", type: "string", description: "state directory (the tokens are stored there)", default: "<dir>/.bdk/state" },
    { name: "open", type: "boolean", description: "open the authorization URL in a browser (--no-open only prints it)", default: true },
  ],
  async run(args, io) {
    const [subcommand, name, ...extra] = args.positionals;
    if (subcommand !== "oauth") {
      throw new UsageError(subcommand ? `unknown mcp subcommand "${subcommand}" (known: oauth)` : "name a subcommand: bdk mcp oauth <connection>");
    }
    if (!name) throw new UsageError("name the connection to authorize");
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return oauth(name, args, io);
  },
};

async function oauth(name: string, args: ParsedArgs, io: CommandIO): Promise<number> {
  const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
  // Only the definitions are needed: no store, runtime or connection is opened.
  const { loadAgent } = await import("../../server/load/load-agent.ts");
  const { AgentLoadError, defaultStateRoot } = await import("../../server/host/open-agent.ts");
  const { agentErrors } = await import("../../server/discover/diagnostics.ts");
  const loaded = await loadAgent(dir);
  if (!loaded.agent) throw new Error(`no bot/ folder in ${dir}`);
  if (agentErrors(loaded.diagnostics).length > 0) throw new AgentLoadError(loaded.diagnostics);
  const { oauthConnection, authorizeConnection } = await import("../../server/mcp/oauth-flow.ts");
  const found = oauthConnection(loaded.agent, name);
  if ("problem" in found) throw new UsageError(found.problem);
  const stateRoot = path.resolve(io.cwd, stringFlag(args, "state-root") ?? defaultStateRoot(dir));
  const open = args.flags.open === undefined || booleanFlag(args, "open");

  const { file } = await authorizeConnection({
    name,
    definition: found.definition,
    stateRoot,
    onAuthorizationUrl(url) {
      io.stdout.write(`Open this URL to authorize: ${url.href}\n`);
      if (open) openBrowser(url.href);
      io.stdout.write("Waiting for the browser to come back (5 minutes at most)...\n");
    },
  });
  io.stdout.write(`Authorized ${name}; tokens saved in ${file}.\n`);
  return 0;
}

/** Best effort: the URL is printed anyway, so a missing opener (a server without a desktop) is not an error. */
function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // spawn can throw synchronously (e.g. EPERM); the printed URL still works.
  }
}
