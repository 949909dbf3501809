/**
 * Stdio MCP servers are children of this process and must never outlive it.
 * `McpConnections.close()` stops them in order; this is the last resort when
 * the process exits without closing (an uncaught error, `process.exit()`):
 * an `exit` listener can only run synchronous code, so it signals each pid.
 */
const livePids = new Set<number>();
let listening = false;

function killAll(): void {
  for (const pid of livePids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  livePids.clear();
}

/** Remembers a child until the returned function is called (when it has exited). */
export function trackChild(pid: number): () => void {
  if (!listening) {
    process.on("exit", killAll);
    listening = true;
  }
  livePids.add(pid);
  return () => {
    livePids.delete(pid);
  };
}
