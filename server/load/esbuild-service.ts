/**
 * esbuild's service (a child process, and a worker thread for its sync
 * calls) lives while a load uses it: the import scan, then the transform
 * of every module the load imports. esbuild would keep it for the next
 * call, but a load runs at start and on a dev reload, so it is not kept for
 * the server's life (12.5 MB RSS). Not stopped while another load uses it.
 */
import { createRequire } from "node:module";
import type * as Esbuild from "esbuild";

let loaded: typeof Esbuild | undefined;

/**
 * esbuild's API, required when first used: an ES module importing its
 * CommonJS has Node scan it for exports (30 ms of CPU), and a load whose
 * scan and transforms are all cached does not use it.
 */
export function esbuildModule(): typeof Esbuild {
  loaded ??= createRequire(import.meta.url)("esbuild") as typeof Esbuild;
  return loaded;
}

let users = 0;
let stopping: Promise<void> | undefined;

/** Runs `work` with the service held; the last user to finish stops it. */
export async function withEsbuild<T>(work: (esbuild: () => typeof Esbuild) => Promise<T>): Promise<T> {
  await stopping;
  users++;
  try {
    return await work(esbuildModule);
  } finally {
    if (--users === 0 && loaded) {
      stopping = loaded.stop();
      await stopping;
    }
  }
}

/** Whether a load holds the service now (outside one, a transform would start a service no one stops). */
export function esbuildHeld(): boolean {
  return users > 0;
}
