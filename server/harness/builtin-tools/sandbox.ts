/**
 * `local.sandbox: true`: commands run under bubblewrap with a read-only view
 * of the system, the workspace as the only writable place, a private /tmp and
 * no network.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";

/** The argv that runs `argv` inside the sandbox, with `workspaceDir` (a real path) writable and current. */
export function sandboxArgv(workspaceDir: string, argv: string[]): string[] {
  return [
    "bwrap",
    "--die-with-parent",
    "--unshare-all",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    // Before the workspace bind: a workspace below /tmp must stay visible.
    "--tmpfs", "/tmp",
    "--bind", workspaceDir, workspaceDir,
    "--chdir", workspaceDir,
    "--",
    ...argv,
  ];
}

/** Whether `bwrap` is installed and can actually create a sandbox here (user namespaces may be disabled). */
export function sandboxAvailable(): boolean {
  const [command, ...args] = sandboxArgv(os.tmpdir(), ["true"]);
  const probe = spawnSync(command, args, { stdio: "ignore", timeout: 10_000 });
  return probe.error === undefined && probe.status === 0;
}
