/**
 * How commands run for the model (shell, agent tools), in the strongest mode
 * this machine allows; docs/tools.md "Confinement" says what each guarantees.
 *
 * - `local.sandbox: true`: bubblewrap with a read-only view of the system,
 *   the workspace as the only writable place, a private /tmp, no network,
 *   and its own process namespace.
 * - otherwise, where bubblewrap can make a process namespace: the same
 *   filesystem and network as the server, but the command sees only its own
 *   processes in /proc (not the server's environment or command line) and
 *   every process it starts ends with it, `setsid` or not.
 * - otherwise: a process group of its own; on a time limit or a stop, the
 *   group and every descendant found in /proc are killed.
 *
 * Both bubblewrap modes drop every capability (`--cap-drop ALL`): a server
 * run as root (the usual case in a container) would otherwise hand them to
 * the command, which could remount the read-only system writable or unmount
 * its own /proc to uncover the server's. They also start a new session (no
 * terminal to push input into) and end when the server does.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";

/** What both bubblewrap modes start with: no capabilities, a session of its own, gone with the server. */
const BWRAP_COMMON = ["bwrap", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];

/**
 * The argv that runs `argv` inside the sandbox, with `workspaceDir` (a real
 * path) writable and current. `readOnly`: folders the command must still
 * read when they lie below /tmp, which the sandbox replaces (an agent tool's
 * project and the kit).
 */
export function sandboxArgv(workspaceDir: string, argv: string[], readOnly: string[] = []): string[] {
  const underTmp = readOnly.filter((dir) => dir === "/tmp" || dir.startsWith("/tmp/"));
  return [
    ...BWRAP_COMMON,
    // Every namespace, a user namespace included where the kernel allows one.
    "--unshare-all",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    // Before the binds below: what lies below /tmp must stay visible.
    "--tmpfs", "/tmp",
    ...underTmp.flatMap((dir) => ["--ro-bind", dir, dir]),
    "--bind", workspaceDir, workspaceDir,
    "--chdir", workspaceDir,
    "--",
    ...argv,
  ];
}

/** The argv that runs `argv` with the server's filesystem and network but a process namespace (and /proc) of its own. */
export function processNamespaceArgv(cwd: string, argv: string[]): string[] {
  // A user namespace where possible: the mounts it inherits are then locked, even against a process that regains capabilities in a namespace of its own.
  return [...BWRAP_COMMON, "--unshare-user-try", "--unshare-pid", "--dev-bind", "/", "/", "--proc", "/proc", "--chdir", cwd, "--", ...argv];
}

function probe(argv: string[]): boolean {
  const [command, ...args] = argv;
  const result = spawnSync(command, args, { stdio: "ignore", timeout: 10_000 });
  return result.error === undefined && result.status === 0;
}

/** Whether `bwrap` is installed and can actually create a sandbox here (user namespaces may be disabled). */
export function sandboxAvailable(): boolean {
  return probe(sandboxArgv(os.tmpdir(), ["true"]));
}

let namespaces: boolean | undefined;

/** Whether commands can get a process namespace here (probed once per process). */
export function processNamespaceAvailable(): boolean {
  namespaces ??= probe(processNamespaceArgv(os.tmpdir(), ["true"]));
  return namespaces;
}

/** `argv` wrapped for the strongest confinement available: the sandbox when asked for, else a process namespace when possible. */
export function confinedArgv(options: { sandbox?: boolean; cwd: string; readOnly?: string[] }, argv: string[]): string[] {
  if (options.sandbox) return sandboxArgv(options.cwd, argv, options.readOnly);
  return processNamespaceAvailable() ? processNamespaceArgv(options.cwd, argv) : argv;
}
