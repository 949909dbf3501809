import { kitVersion } from "../../server/kit-dir.ts";
import type { Command } from "../command.ts";

export const versionCommand: Command = {
  name: "version",
  summary: "Print the kit's version",
  usage: "bdk version",
  flags: [],
  async run(_args, io) {
    io.stdout.write(`bdk ${kitVersion()}\n`);
    return 0;
  },
};
