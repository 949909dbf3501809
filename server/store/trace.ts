/**
 * `<stateRoot>/traces/<sessionId>.ndjson`: an append-only copy of a session's
 * events, one JSON line each. The database stays the source of truth.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { AnyBdkEvent, BdkEvent } from "../protocol/events.ts";
import { toNdjson } from "../protocol/ndjson.ts";
import { BdkError } from "../protocol/errors.ts";

export const TRACES_DIR = "traces";

/** Ids become file names: keep them to one plain path segment. */
export function isFileSafeId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,200}$/.test(id);
}

export function traceFile(stateRoot: string, sessionId: string): string {
  if (!isFileSafeId(sessionId)) throw new BdkError("invalid_request", `Invalid session id: ${sessionId}`);
  return path.join(stateRoot, TRACES_DIR, `${sessionId}.ndjson`);
}

/** Files this process has appended to, whose tail it already checked (a bounded cache: forgetting one only costs a re-check). */
const checkedFiles = new Set<string>();
const MAX_CHECKED_FILES = 10_000;

export function appendTrace(stateRoot: string, events: readonly BdkEvent[]): void {
  const linesByFile = new Map<string, string>();
  for (const event of events) {
    const file = traceFile(stateRoot, event.sessionId);
    // The same serialisation live followers get (computed once per event).
    linesByFile.set(file, (linesByFile.get(file) ?? "") + toNdjson([event as AnyBdkEvent]));
  }
  for (const [file, lines] of linesByFile) appendCreatingDir(file, lines);
}

export function removeTrace(stateRoot: string, sessionId: string): void {
  const file = traceFile(stateRoot, sessionId);
  checkedFiles.delete(file);
  closeTrace(file);
  rmSync(file, { force: true });
}

/** Reads a trace file, skipping torn (unparsable) lines a crash may leave. */
export function readTrace(file: string): BdkEvent[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BdkError("not_found", `No trace file at ${file}`);
    throw error;
  }
  const events: BdkEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as BdkEvent);
    } catch {
      // a torn line: skip it
    }
  }
  // Two processes appending to one session commit in index order but may write their copies out of order.
  return isSortedByIndex(events) ? events : events.sort((a, b) => a.index - b.index);
}

/**
 * Recently written traces stay open, so a busy session costs one write per
 * batch, not open+write+close; sized for hundreds of concurrent sessions
 * (Node raises the descriptor limit to the hard limit at start).
 */
const openTraces = new Map<string, number>();
const MAX_OPEN_TRACES = 512;

function appendCreatingDir(file: string, text: string): void {
  let fd = openTraces.get(file);
  let prefix = "";
  if (fd === undefined) {
    const opened = openForAppend(file);
    try {
      // The first write of this process: a crash mid-write may have left a line without its newline.
      if (!checkedFiles.has(file) && endsWithoutNewline(opened)) prefix = "\n";
    } catch (error) {
      closeSync(opened);
      throw error;
    }
    fd = opened;
    if (checkedFiles.size >= MAX_CHECKED_FILES) checkedFiles.clear();
    checkedFiles.add(file);
    if (openTraces.size >= MAX_OPEN_TRACES) closeTrace(openTraces.keys().next().value!);
  } else {
    openTraces.delete(file);
  }
  openTraces.set(file, fd);
  writeAll(fd, Buffer.from(prefix + text, "utf8"));
}

/** `writeSync` may write less than asked (a full disk, a signal): keep going until every byte is out. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Append mode with reads allowed ("a+"), so the tail check needs no second open. */
function openForAppend(file: string): number {
  try {
    return openSync(file, "a+");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(path.dirname(file), { recursive: true });
    return openSync(file, "a+");
  }
}

function closeTrace(file: string): void {
  const fd = openTraces.get(file);
  if (fd === undefined) return;
  openTraces.delete(file);
  closeSync(fd);
}

/** Closes the trace files this process holds open (store shutdown). */
export function closeTraces(): void {
  for (const file of [...openTraces.keys()]) closeTrace(file);
}

function endsWithoutNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

function isSortedByIndex(events: readonly BdkEvent[]): boolean {
  for (let i = 1; i < events.length; i++) if (events[i].index < events[i - 1].index) return false;
  return true;
}
