/**
 * Runs the kit on another Node binary (`--node <path>` or `BDK_BENCH_NODE`):
 * the benches measure `bdk serve` on Node 20, 22 and 24 from one checkout.
 * better-sqlite3 is a native module built for one Node ABI, so a Node whose
 * ABI differs gets a copy of the tree (hard links, timestamps kept, so
 * bin/bdk.mjs still finds dist/ current) whose better-sqlite3 is rebuilt for
 * it from source once and cached per ABI under node_modules/.cache/bdk-node.
 * The copy is laid anew at each run; a file edited in place during a run
 * changes in the copy too (and a newer cli/, server/ or web/ file sends it
 * through tsx). Bench-only: CI never runs it.
 *
 *   bash scripts/node-binary.sh 22.23.5   # fetches a Node from the npm registry, prints its path
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { KIT_DIR } from "../../test/support/bdk-server.ts";

export interface KitOnNode {
  /** The Node binary. */
  node: string;
  /** `node --version`. */
  version: string;
  /** The kit folder to run `bin/bdk.mjs` from. */
  kitDir: string;
}

/** The Node binary asked for on the command line or in BDK_BENCH_NODE; the running one otherwise. */
export function benchNode(argv = process.argv): string {
  const at = argv.indexOf("--node");
  if (at !== -1 && !argv[at + 1]) throw new Error("--node needs the path of a Node binary");
  return at !== -1 ? path.resolve(argv[at + 1]!) : (process.env.BDK_BENCH_NODE ?? process.execPath);
}

/** A kit tree `node` can run (this checkout when its better-sqlite3 loads there). */
export function kitOnNode(node: string): KitOnNode {
  if (!existsSync(node)) throw new Error(`--node / BDK_BENCH_NODE: no Node binary at ${node}`);
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  const loads = spawnSync(node, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], { cwd: KIT_DIR, stdio: "ignore" });
  if (loads.status === 0) return { node, version, kitDir: KIT_DIR };
  const abi = execFileSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();
  const sqlite = rebuiltBetterSqlite(node, abi);
  const kitDir = path.join(KIT_DIR, "bench", ".work", `kit-node-abi${abi}`);
  rmSync(kitDir, { recursive: true, force: true });
  mkdirSync(path.join(kitDir, "node_modules"), { recursive: true });
  const skip = new Set(["node_modules", ".git", "bench", "test-results", "e2e", ".bdk"]);
  for (const entry of readdirSync(KIT_DIR)) {
    if (!skip.has(entry)) execFileSync("cp", ["-al", path.join(KIT_DIR, entry), path.join(kitDir, entry)]);
  }
  // bench/.work holds this copy: the rest of bench/ only.
  mkdirSync(path.join(kitDir, "bench"));
  for (const entry of readdirSync(path.join(KIT_DIR, "bench"))) {
    if (entry !== ".work") execFileSync("cp", ["-al", path.join(KIT_DIR, "bench", entry), path.join(kitDir, "bench", entry)]);
  }
  for (const entry of readdirSync(path.join(KIT_DIR, "node_modules"))) {
    if (entry === ".cache" || entry === "better-sqlite3") continue;
    execFileSync("cp", ["-al", path.join(KIT_DIR, "node_modules", entry), path.join(kitDir, "node_modules", entry)]);
  }
  execFileSync("cp", ["-al", sqlite, path.join(kitDir, "node_modules", "better-sqlite3")]);
  return { node, version, kitDir };
}

/** better-sqlite3 built for Node ABI `abi` from source against `node`'s own headers (nothing downloaded), cached. */
function rebuiltBetterSqlite(node: string, abi: string): string {
  const cached = path.join(KIT_DIR, "node_modules", ".cache", "bdk-node", `better-sqlite3-abi${abi}`);
  if (existsSync(path.join(cached, "build", "Release", "better_sqlite3.node"))) return cached;
  const building = `${cached}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  // A project of its own, so npm rebuilds this copy only (node-gyp resolves from the package).
  const project = path.join(building, "project");
  mkdirSync(path.join(project, "node_modules"), { recursive: true });
  cpSync(path.join(KIT_DIR, "node_modules", "better-sqlite3"), path.join(project, "node_modules", "better-sqlite3"), { recursive: true });
  const nodeDir = path.dirname(path.dirname(node));
  console.error(`Rebuilding better-sqlite3 for Node ABI ${abi} (once; cached in ${path.relative(KIT_DIR, cached)})`);
  execFileSync("npm", ["rebuild", "better-sqlite3"], {
    cwd: project,
    stdio: ["ignore", "ignore", "inherit"],
    // The npm registry's Node package carries the headers; build_from_source skips prebuild-install's download.
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: nodeDir, npm_config_build_from_source: "true" },
  });
  rmSync(cached, { recursive: true, force: true });
  execFileSync("mv", [path.join(project, "node_modules", "better-sqlite3"), cached]);
  rmSync(building, { recursive: true, force: true });
  return cached;
}
