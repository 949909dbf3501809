import { hostname } from "node:os";

/** This process in the cluster, as streams name a turn's owner: `BDK_NODE_ID`, else `<hostname>:<pid>`. */
export function nodeId(env: Record<string, string | undefined> = process.env): string {
  return env.BDK_NODE_ID?.trim() || `${hostname()}:${process.pid}`;
}
