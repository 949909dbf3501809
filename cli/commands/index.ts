import type { Command } from "../command.ts";
import { callCommand } from "./call.ts";
import { chatCommand } from "./chat.ts";
import { infoCommand } from "./info.ts";
import { runCommand } from "./run.ts";
import { devCommand, serveCommand } from "./serve.ts";
import { trajectoryCommand } from "./trajectory.ts";
import { validateCommand } from "./validate.ts";
import { versionCommand } from "./version.ts";

/** Every command, in the order `bdk --help` lists them. Command modules import their engine lazily. */
export function commands(): Command[] {
  return [
    validateCommand,
    infoCommand,
    runCommand,
    chatCommand,
    callCommand,
    serveCommand,
    devCommand,
    trajectoryCommand,
    versionCommand,
  ];
}
