/**
 * A trace file read for a summary (`bdk trajectory`): its index holes found,
 * and restored from the database when the file sits in its state root
 * (`<stateRoot>/traces/<sessionId>.ndjson` beside `bdk.sqlite`).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { BdkEvent } from "../protocol/events.ts";
import { DATABASE_FILE } from "./db.ts";
import { openStore } from "./store.ts";
import { type IndexRange, isFileSafeId, missingRanges, readTrace, TRACES_DIR } from "./trace.ts";

export interface CheckedTrace {
  events: BdkEvent[];
  /** Indexes the file lacks (between 0 and its last line) that nothing could restore. */
  gaps: IndexRange[];
  /** What was restored from the database, and from which file. */
  restored?: { ranges: IndexRange[]; database: string };
}

export function readCheckedTrace(file: string): CheckedTrace {
  const events = readTrace(file);
  const database = databaseBeside(file);
  const sessionId = path.basename(file, ".ndjson");
  if (database) {
    const store = openStore(path.dirname(database));
    try {
      if (store.sessions.get(sessionId)) {
        const ranges = store.events.repairTrace(sessionId, { whole: true });
        if (ranges.length > 0) return { events: readTrace(file), gaps: [], restored: { ranges, database } };
        return { events, gaps: [] };
      }
    } finally {
      store.close();
    }
  }
  return { events, gaps: missingRanges(events.map((event) => event.index)) };
}

/** The state root's database when `file` is one of its trace files. */
function databaseBeside(file: string): string | undefined {
  const dir = path.dirname(file);
  if (path.basename(dir) !== TRACES_DIR || !isFileSafeId(path.basename(file, ".ndjson"))) return undefined;
  const database = path.join(path.dirname(dir), DATABASE_FILE);
  return existsSync(database) ? database : undefined;
}
