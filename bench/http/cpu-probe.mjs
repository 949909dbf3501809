// Loaded into `bdk serve` by bench/http's load mode (NODE_OPTIONS=--import,
// which refuses --cpu-prof): SIGUSR2 starts the CPU profiler, and the next
// SIGUSR2 writes the profile to $BDK_CPU_PROFILE_FILE, so the profile covers
// the load alone and not the start or the warm-up.
import { Session } from "node:inspector";
import { renameSync, writeFileSync } from "node:fs";

const session = new Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    session.post("Profiler.enable", () => session.post("Profiler.start"));
    running = true;
    return;
  }
  session.post("Profiler.stop", (error, result) => {
    if (error) throw error;
    const file = process.env.BDK_CPU_PROFILE_FILE;
    writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
    renameSync(`${file}.tmp`, file);
  });
  running = false;
});
