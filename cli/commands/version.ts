import { readFileSync } from "node:fs";
import { kitPath } from "../../server/kit-dir.ts";
import type { Command } from "../command.ts";

export const versionCommand: Command = {
  name: "version",
  summary: "Print the kit's version",
  usage: "bdk version",
  flags: [],
  async run(_args, io) {
    const pkg = JSON.parse(readFileSync(kitPath("package.json"), "utf8")) as { version: string };
    io.stdout.write(`bdk ${pkg.version}\n`);
    return 0;
  },
};
