/**
 * Killing a command with everything it started, also what left its process
 * group (`setsid`, `setpgid`): descendants are found through the parent links
 * in /proc while the command is still alive to link them.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Parent pid of every process, from /proc/<pid>/stat (empty where /proc is missing). */
function parentLinks(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const siblings = children.get(ppid) ?? [];
    siblings.push(Number(name));
    children.set(ppid, siblings);
  }
  return children;
}

/** `pid`'s descendants as the kernel links them now. */
export function descendantsOf(pid: number): number[] {
  const children = parentLinks();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function kill(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** SIGKILLs `pid`'s process group and every descendant, wherever it moved. */
export function killProcessTree(pid: number): void {
  const descendants = descendantsOf(pid);
  kill(-pid);
  for (const descendant of descendants) kill(descendant);
}
