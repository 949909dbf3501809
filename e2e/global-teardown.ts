/** Removes the shared server's state directory (its SQLite files and workspaces) after the run. */
import { rmSync } from "node:fs";
import { mainServer } from "./main-server.ts";

export default function globalTeardown(): void {
  rmSync(mainServer().stateRoot, { recursive: true, force: true });
}
