/**
 * A CLI command: its flags (for `--help` and `bdk help <cmd> --json`) and a
 * run function that returns the exit status. Usage errors throw UsageError (exit 2).
 */
export interface FlagSpec {
  name: string;
  /** "boolean" flags take no value; "string" flags take one; "strings" may repeat. */
  type: "boolean" | "string" | "strings";
  description: string;
  default?: string | boolean;
}

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
}

export interface CommandIO {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: FlagSpec[];
  run(args: ParsedArgs, io: CommandIO): Promise<number>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  if (value === undefined || value === false) return undefined;
  if (typeof value !== "string") throw new UsageError(`--${name} needs a value`);
  return value;
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.flags[name] === true;
}
