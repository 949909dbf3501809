#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load (Node 20 cannot run .ts itself).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
