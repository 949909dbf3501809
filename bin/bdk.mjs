#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load (Node 20 cannot run .ts itself).
import { setFlagsFromString } from "node:v8";
import { register } from "tsx/esm/api";

// A long-lived server idles with a small young generation (about 25 MB less
// resident memory); scavenges stay cheap at this size.
if (!process.execArgv.some((flag) => flag.startsWith("--max-semi-space-size"))) {
  setFlagsFromString("--max-semi-space-size=4");
}
// Scoped to the kit's own module graph: Next.js and node_modules load natively,
// without a round trip through the loader thread on every dynamic import.
const kit = register({ namespace: "bdk" });
const { main } = await kit.import("../cli/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2));
