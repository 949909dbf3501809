import path from "node:path";
import { SLUG_FLAG, selectedAgent } from "../agent-selection.ts";
import { type Command, stringFlag, UsageError } from "../command.ts";
import { RemoteAgent } from "../remote.ts";

export const callCommand: Command = {
  name: "call",
  summary: "Call one tool directly, without a model turn",
  usage: "bdk call <tool> [--dir D [--slug S] | --url U] [--input JSON]",
  flags: [
    { name: "dir", type: "string", description: "project directory (or a folder of projects, with --slug)", default: "." },
    { name: "url", type: "string", description: "call through a running server" },
    SLUG_FLAG,
    { name: "token", type: "string", description: "with --url: bearer token (default BDK_BEARER_TOKEN)" },
    { name: "input", type: "string", description: "the tool input as JSON", default: "{}" },
    { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
  ],
  async run(args, io) {
    const [toolName, ...extra] = args.positionals;
    if (!toolName) throw new UsageError("name the tool to call");
    if (extra.length > 0) {
      // `bdk call tool '{"q":1}'`: the input was meant, in the place other CLIs take it.
      const looksLikeInput = /^\s*[{[]/.test(extra[0]);
      throw new UsageError(`unexpected argument "${extra[0]}"${looksLikeInput ? `; pass the input as --input '${extra[0]}'` : ""}`);
    }
    const input = parseInput(stringFlag(args, "input") ?? "{}");

    let outcome: { isError: boolean; result: unknown };
    const url = stringFlag(args, "url");
    if (url) {
      const remote = new RemoteAgent(url, stringFlag(args, "slug"), stringFlag(args, "token") ?? io.env.BDK_BEARER_TOKEN);
      outcome = await remote.request("POST", `/tools/${encodeURIComponent(toolName)}`, { input });
    } else {
      const { openSelectedAgent } = await import("../../server/host/open-selected.ts");
      const { AgentLoadError, agentLabel } = await import("../../server/host/open-agent.ts");
      const { agentErrors } = await import("../../server/discover/diagnostics.ts");
      const stateRoot = stringFlag(args, "state-root");
      const selection = await selectedAgent(args, io);
      const opened = await openSelectedAgent(selection, {
        stateRoot: stateRoot && path.resolve(io.cwd, stateRoot),
        env: io.env,
        allowErrors: true,
      });
      try {
        // Errors in other files do not stop a call of a tool that loaded; a tool that did not load cannot be called.
        const errors = agentErrors(opened.diagnostics);
        if (errors.length > 0) {
          if (!opened.agent.tools.some((tool) => tool.name === toolName)) {
            const refusal = new AgentLoadError(opened.diagnostics, agentLabel(selection.dir, selection.slug));
            refusal.message = `tool "${toolName}" is not available: ${refusal.message}`;
            throw refusal;
          }
          io.stderr.write(`warning: the agent has ${errors.length} error${errors.length === 1 ? "" : "s"} (bdk validate lists them); calling ${toolName}, which loaded.\n`);
        }
        const { authoredTools } = await import("../../server/sessions/turn-setup.ts");
        const callable = authoredTools(opened.agent).map((tool) => tool.name);
        if (!callable.includes(toolName)) {
          throw new Error(`no tool named "${toolName}"; ${callable.length > 0 ? `the agent's tools: ${callable.join(", ")}` : "the agent has no tools of its own"} (bdk info lists them)`);
        }
        const result = await opened.runtime.tools.callTool(toolName, input, { principal: { type: "user", id: "local" } });
        outcome = { isError: result.isError, result: result.output };
      } finally {
        await opened.close();
      }
    }
    io.stdout.write(`${JSON.stringify({ isError: outcome.isError, result: outcome.result }, null, 2)}\n`);
    return outcome.isError ? 1 : 0;
  },
};

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input is not valid JSON (${(error as Error).message})`);
  }
}
