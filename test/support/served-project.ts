/**
 * A throwaway project served in this process (`serve()`, scripted model) for
 * the tests of one file: started before them, closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { removeTempProjects, tempProject } from "../../server/load/testing/temp-project.ts";
import { openStore, type Store } from "../../server/store/index.ts";
import { serve, type ServeHandle, type ServeOptions } from "../../web/serve.ts";
import { type RunningServer, startServer } from "./bdk-server.ts";

export interface ServedProject {
  readonly handle: ServeHandle;
  readonly dir: string;
  /** `fetch` on the server: with `bearer`, as the principal of the served `authToken`; without, as `user:local` (loopback). */
  call(route: string, init?: RequestInit & { bearer?: boolean }): Promise<Response>;
}

export function serveProject(files: Record<string, string>, options: ServeOptions = {}): ServedProject {
  let handle: ServeHandle | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = tempProject(files);
    handle = await serve(dir, { port: 0, ...options, env: { BDK_MODEL: "scripted", ...options.env } });
  }, 180_000);
  afterAll(async () => {
    await handle?.close();
    removeTempProjects();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the project is served from beforeAll on");
    return value;
  };
  return {
    get handle() {
      return started(handle);
    },
    get dir() {
      return started(dir);
    },
    call(route, { bearer, headers, ...init } = {}) {
      return fetch(`${started(handle).url}${route}`, {
        ...init,
        headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${[options.authToken].flat()[0]}` } : {}), ...headers },
      });
    },
  };
}

/**
 * `bdk serve` as a child process for the tests of one describe block, with
 * its state store opened beside it (to read events): started before them,
 * stopped after them. `options` is read in beforeAll (a project copied there).
 */
export function servedChild(options: () => Parameters<typeof startServer>[0]): { readonly server: RunningServer; readonly store: Store } {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    server = await startServer(options());
    store = openStore(server.stateRoot);
  }, 240_000);
  afterAll(async () => {
    store?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the server runs from beforeAll on");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get store() {
      return started(store);
    },
  };
}
