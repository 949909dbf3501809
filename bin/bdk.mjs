#!/usr/bin/env node
// The installed package runs the compiled kit in dist/. A checkout of the
// repository runs its TypeScript sources through tsx (a dev dependency), so
// edits take effect without a build.
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

// A long-lived server idles with a small young generation (about 25 MB less
// resident memory); scavenges stay cheap at this size.
if (!process.execArgv.some((flag) => flag.startsWith("--max-semi-space-size"))) {
  setFlagsFromString("--max-semi-space-size=4");
}

async function loadMain() {
  const sources = new URL("../cli/main.ts", import.meta.url);
  if (!existsSync(sources)) return (await import("../dist/cli/main.js")).main;
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    process.stderr.write("bdk: this checkout runs its TypeScript sources with tsx, which is not installed: run `npm install` in it.\n");
    process.exit(1);
  }
  // Scoped to the kit's own module graph: Next.js and node_modules load natively,
  // without a round trip through the loader thread on every dynamic import.
  const kit = register({ namespace: "bdk" });
  return (await kit.import("../cli/main.ts", import.meta.url)).main;
}

const main = await loadMain();
process.exitCode = await main(process.argv.slice(2));
