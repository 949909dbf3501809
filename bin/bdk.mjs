#!/usr/bin/env node
// The installed package runs the compiled kit in dist/. A checkout of the
// repository runs dist/ too while it is current (`npm run build` since the
// last edit): loading compiled JavaScript saves the start about two seconds
// of CPU and the transpiling thread's memory. Otherwise it runs its
// TypeScript sources through tsx (a dev dependency), so edits take effect
// without a build.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const KIT = new URL("../", import.meta.url);

/** Whether anything under `dir` changed after `since` (ms): a file edited, added or removed (its folder's time). */
function changedSince(dir, since) {
  if (statSync(dir).mtimeMs > since) return true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? changedSince(full, since) : statSync(full).mtimeMs > since) return true;
  }
  return false;
}

/** dist/ compiled (web/compile.ts stamps it) after the last change of the sources. */
function compiledIsCurrent() {
  const stamp = statSync(new URL("dist/compiled-at", KIT), { throwIfNoEntry: false });
  if (!stamp) return false;
  // The folders web/compile.ts compiles.
  return !["cli", "server", "web"].some((dir) => changedSince(fileURLToPath(new URL(dir, KIT)), stamp.mtimeMs));
}

async function loadMain() {
  if (!existsSync(new URL("cli/main.ts", KIT)) || compiledIsCurrent()) return (await import("../dist/cli/main.js")).main;
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
