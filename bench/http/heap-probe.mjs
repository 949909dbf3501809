// Loaded into `bdk serve` by bench/http (NODE_OPTIONS=--import): on SIGUSR2 it
// collects garbage as the server's idle trim does (server/host/idle-trim.ts:
// the last-resort flavour, then a plain collection), lets the collector hand
// freed pages back, and writes process.memoryUsage() to $BDK_HEAP_PROBE_FILE,
// so the bench reads the memory the server really retains (heapUsed is then
// the live heap).
import { renameSync, writeFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const collect = () => {
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  gc();
};

process.on("SIGUSR2", () => {
  collect();
  // Sweeping and unmapping finish after the pause: read RSS once they have.
  setTimeout(() => {
    collect();
    // Written aside, then renamed: the bench never reads half a file.
    const file = process.env.BDK_HEAP_PROBE_FILE;
    writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.tmp`, file);
  }, 1000);
});
