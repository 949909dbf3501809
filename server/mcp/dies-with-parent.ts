/**
 * A stdio MCP server must not outlive the server that started it, even when
 * that server is killed with SIGKILL (no exit handler runs then). On Linux,
 * util-linux `setpriv --pdeathsig` makes the kernel send the child SIGTERM
 * when its parent dies; it execs the command, so the pid stays the server's.
 */
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";

const SETPRIV = "/usr/bin/setpriv";
const canSetDeathSignal = process.platform === "linux" && existsSync(SETPRIV);

/**
 * The command line that runs `command` with a parent-death signal where the
 * system offers one. A command that cannot be found is left as is, so its
 * spawn fails with ENOENT naming it rather than inside the wrapper.
 */
export function diesWithParent(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): { command: string; args: string[] } {
  const resolved = canSetDeathSignal ? findExecutable(command, env.PATH ?? "", cwd) : undefined;
  if (!resolved) return { command, args };
  return { command: SETPRIV, args: ["--pdeathsig", "SIGTERM", "--", resolved, ...args] };
}

function findExecutable(command: string, searchPath: string, cwd: string): string | undefined {
  const candidates = command.includes("/")
    ? [path.resolve(cwd, command)]
    : searchPath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
