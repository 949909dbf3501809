import type { Command } from "../command.ts";
import { callCommand } from "./call.ts";
import { chatCommand } from "./chat.ts";
import { docsCommand } from "./docs.ts";
import { evalCommand } from "./eval.ts";
import { infoCommand } from "./info.ts";
import { initCommand } from "./init.ts";
import { manifestCommand } from "./manifest.ts";
import { mcpCommand } from "./mcp.ts";
import { runCommand } from "./run.ts";
import { devCommand, serveCommand } from "./serve.ts";
import { trajectoryCommand } from "./trajectory.ts";
import { validateCommand } from "./validate.ts";
import { versionCommand } from "./version.ts";

/** Every command, in the order `bdk --help` lists them. Command modules import their engine lazily. */
export function commands(): Command[] {
  return [
    initCommand,
    validateCommand,
    infoCommand,
    manifestCommand,
    runCommand,
    chatCommand,
    callCommand,
    evalCommand,
    mcpCommand,
    serveCommand,
    devCommand,
    trajectoryCommand,
    docsCommand,
    versionCommand,
  ];
}
