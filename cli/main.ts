import path from "node:path";
import { loadEnvFiles } from "../server/host/env-files.ts";
import { formatHelp, parseArgs } from "./args.ts";
import type { Command, CommandIO } from "./command.ts";
import { stringFlag, UsageError } from "./command.ts";
import { commands } from "./commands/index.ts";
import { CURSOR_ACCOUNT_COMMANDS, cursorAccountFlag } from "./cursor-account.ts";

const TOP_HELP = (list: Command[]) =>
  [
    "bdk: build, run and serve bots written as a folder of Markdown and TypeScript.",
    "",
    "Usage: bdk <command> [flags]",
    "",
    "Commands:",
    ...list.map((command) => `  ${command.name.padEnd(12)} ${command.summary}`),
    "",
    "Run `bdk <command> --help` for a command's flags; `bdk help <command> --json` prints them as JSON.",
    "",
  ].join("\n");

/** Runs one CLI invocation and returns the exit status (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: CommandIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  const list = commands();
  if (!name || name === "--help" || name === "-h") {
    io.stdout.write(TOP_HELP(list));
    return 0;
  }
  if (name === "--version" || name === "-v") return main(["version"], io);
  if (name === "help") return help(rest, list, io);

  const unsupported = CURSOR_ACCOUNT_COMMANDS[name] ?? cursorAccountFlag(rest);
  if (unsupported) {
    io.stderr.write(`bdk ${name}: ${unsupported}\n`);
    return 2;
  }
  const command = list.find((candidate) => candidate.name === name);
  if (!command) return usageFailure(io, `unknown command "${name}"`, undefined);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(formatHelp(command.usage, command.summary, command.flags));
    return 0;
  }
  try {
    const args = parseArgs(rest, command.flags);
    // A command that works on a project reads the project's .env files before anything loads it:
    // with --slug, the agent's own folder first (its files win), then the folder of agents.
    if (command.flags.some((flag) => flag.name === "dir")) {
      const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
      const slug = stringFlag(args, "slug");
      const agentDir = slug && /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(slug) ? [path.join(dir, slug)] : [];
      for (const projectDir of [...agentDir, dir]) loadEnvFiles(projectDir, io.env);
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error.message, command.name);
    io.stderr.write(`bdk ${command.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function help(rest: string[], list: Command[], io: CommandIO): number {
  const target = rest.find((arg) => !arg.startsWith("--"));
  if (!target) {
    io.stdout.write(TOP_HELP(list));
    return 0;
  }
  const command = list.find((candidate) => candidate.name === target);
  if (!command) return usageFailure(io, `unknown command "${target}"`, undefined);
  if (rest.includes("--json")) {
    const { name, summary, usage, flags } = command;
    io.stdout.write(`${JSON.stringify({ name, summary, usage, flags }, null, 2)}\n`);
  } else {
    io.stdout.write(formatHelp(command.usage, command.summary, command.flags));
  }
  return 0;
}

function usageFailure(io: CommandIO, message: string, command: string | undefined): number {
  io.stderr.write(`bdk: ${message}. See \`bdk ${command ? `${command} ` : ""}--help\`.\n`);
  return 2;
}

function processIO(): CommandIO {
  // A reader that stops early (`bdk info | head -3`) closes the pipe: that ends the command quietly, as it does for any CLI.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(0);
    });
  }
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
