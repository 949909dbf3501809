import { type FlagSpec, type ParsedArgs, UsageError } from "./command.ts";

/**
 * Parses `--flag value`, `--flag=value`, `--no-flag` and positionals against
 * a command's flag list; an unknown flag or a missing value is a usage error.
 */
export function parseArgs(argv: string[], specs: FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const parsed: ParsedArgs = { positionals: [], flags: {} };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let inline: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    let spec = byName.get(name);
    if (!spec && name.startsWith("no-") && byName.get(name.slice(3))?.type === "boolean") {
      spec = byName.get(name.slice(3));
      name = name.slice(3);
      inline = "false";
    }
    if (!spec) {
      // A negated flag such as --no-playground is declared under its own name.
      throw new UsageError(`unknown flag --${name}`);
    }
    if (spec.type === "boolean") {
      parsed.flags[name] = inline === undefined ? true : inline !== "false";
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.type === "strings") {
      const list = (parsed.flags[name] as string[] | undefined) ?? [];
      list.push(value);
      parsed.flags[name] = list;
    } else {
      parsed.flags[name] = value;
    }
  }
  return parsed;
}

/** The `--help` text of a command. */
export function formatHelp(usage: string, summary: string, specs: FlagSpec[]): string {
  const rows = specs.map((spec) => {
    const left = `  --${spec.name}${spec.type === "boolean" ? "" : " <value>"}`;
    const def = spec.default === undefined ? "" : ` (default: ${spec.default})`;
    return `${left.padEnd(28)} ${spec.description}${def}`;
  });
  return [`Usage: ${usage}`, "", summary, "", "Flags:", ...rows, `  ${"--help".padEnd(26)} show this help`, ""].join(
    "\n",
  );
}
