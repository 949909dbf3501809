#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load (Node 20 cannot run .ts itself).
import { setFlagsFromString } from "node:v8";
import { register } from "tsx/esm/api";

// A long-lived server idles with a small young generation (about 25 MB less
// resident memory); scavenges stay cheap at this size.
if (!process.execArgv.some((flag) => flag.startsWith("--max-semi-space-size"))) {
  setFlagsFromString("--max-semi-space-size=4");
}
register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
