/**
 * `<stateRoot>/traces/<sessionId>.ndjson`: an append-only copy of a session's
 * events, one JSON line each. The database is the source of truth and the
 * file a cache of it: a line the process could not write (it died between
 * the commit and the copy, or the write failed) is restored from the
 * database the next time the file is written, at the next open when the
 * session was among the last written, or when `bdk trajectory` reads it.
 * Restored lines are appended, so readers order lines by index and keep the
 * last copy of an index.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { AnyBdkEvent, BdkEvent } from "../protocol/events.ts";
import { toNdjson } from "../protocol/ndjson.ts";
import { BdkError } from "../protocol/errors.ts";

export const TRACES_DIR = "traces";

/** Inclusive index range. */
export interface IndexRange {
  from: number;
  to: number;
}

/** The stored events `from`..`to` (inclusive) of a session as NDJSON lines: where missing lines come back from. */
export type StoredLines = (sessionId: string, range: IndexRange) => string;

/** Ids become file names: keep them to one plain path segment. */
export function isFileSafeId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,200}$/.test(id);
}

export function traceFile(stateRoot: string, sessionId: string): string {
  if (!isFileSafeId(sessionId)) throw new BdkError("invalid_request", `Invalid session id: ${sessionId}`);
  return path.join(stateRoot, TRACES_DIR, `${sessionId}.ndjson`);
}

/** Files whose lines this process has checked against the database (bounded: forgetting one only costs a re-check). */
const checkedFiles = new Set<string>();
const MAX_CHECKED_FILES = 10_000;

function markChecked(file: string): void {
  if (checkedFiles.size >= MAX_CHECKED_FILES) checkedFiles.clear();
  checkedFiles.add(file);
}

/**
 * Copies stored events to their sessions' trace files. The first write of
 * this process to a file first restores the lines it lacks before them.
 */
export function appendTrace(stateRoot: string, events: readonly BdkEvent[], stored: StoredLines): void {
  const batches = new Map<string, { sessionId: string; first: number; lines: string }>();
  for (const event of events) {
    const file = traceFile(stateRoot, event.sessionId);
    const batch = batches.get(file) ?? { sessionId: event.sessionId, first: event.index, lines: "" };
    // The same serialisation live followers get (computed once per event).
    batch.lines += toNdjson([event as AnyBdkEvent]);
    batches.set(file, batch);
  }
  for (const [file, batch] of batches) {
    const fd = openTrace(file);
    try {
      const restore = checkedFiles.has(file) ? "" : restoredLines(fd, file, batch.sessionId, batch.first - 1, stored).text;
      writeAll(fd, Buffer.from(restore + batch.lines, "utf8"));
      markChecked(file);
    } catch (error) {
      // Whatever part was not written is restored by the next write's check.
      checkedFiles.delete(file);
      closeTrace(file);
      throw error;
    }
  }
}

/**
 * Makes the trace hold every stored event up to `lastIndex`; returns the
 * ranges it had to restore. Costs one read of the file's tail when its last
 * line is `lastIndex`, unless `whole` asks to check every line (a hole in
 * the middle: lines removed by hand, or a crash of one of several writers).
 */
export function repairTrace(
  stateRoot: string,
  sessionId: string,
  lastIndex: number,
  stored: StoredLines,
  options: { whole?: boolean } = {},
): IndexRange[] {
  const file = traceFile(stateRoot, sessionId);
  if (lastIndex < 0) return [];
  const fd = openTrace(file);
  try {
    const restore = restoredLines(fd, file, sessionId, lastIndex, stored, options.whole);
    if (restore.text) writeAll(fd, Buffer.from(restore.text, "utf8"));
    markChecked(file);
    return restore.ranges;
  } catch (error) {
    checkedFiles.delete(file);
    closeTrace(file);
    throw error;
  }
}

/**
 * The lines to append so the file holds indexes 0..`upTo`: none when its last
 * line is `upTo` already (the common case, read from the tail only);
 * otherwise the stored copies of every index the file lacks, after a newline
 * when a crash left the last line torn.
 */
function restoredLines(
  fd: number,
  file: string,
  sessionId: string,
  upTo: number,
  stored: StoredLines,
  whole = false,
): { text: string; ranges: IndexRange[] } {
  const tail = tailOf(fd);
  if (tail.lastIndex === upTo && !tail.torn && !whole) return { text: "", ranges: [] };
  const prefix = tail.torn ? "\n" : "";
  if (upTo < 0) return { text: prefix, ranges: [] };
  const ranges = missingRanges(readTrace(file).map((event) => event.index), upTo);
  return { text: prefix + ranges.map((range) => stored(sessionId, range)).join(""), ranges };
}

export function removeTrace(stateRoot: string, sessionId: string): void {
  const file = traceFile(stateRoot, sessionId);
  checkedFiles.delete(file);
  closeTrace(file);
  rmSync(file, { force: true });
}

/**
 * Reads a trace file in index order, one event per index (the last copy
 * wins), skipping torn (unparsable) lines a crash may leave.
 */
export function readTrace(file: string): BdkEvent[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BdkError("not_found", `No trace file at ${file}`);
    throw error;
  }
  const byIndex = new Map<number, BdkEvent>();
  let ordered = true;
  let last = -1;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let event: BdkEvent;
    try {
      event = JSON.parse(line) as BdkEvent;
    } catch {
      continue; // a torn line
    }
    if (typeof event?.index !== "number") continue;
    if (event.index <= last) ordered = false;
    last = event.index;
    byIndex.delete(event.index);
    byIndex.set(event.index, event);
  }
  const events = [...byIndex.values()];
  // Restored lines, and two processes appending to one session, can put lines out of order.
  return ordered ? events : events.sort((a, b) => a.index - b.index);
}

/** The index ranges absent from `indexes` between 0 and `upTo` (default: the largest present). */
export function missingRanges(indexes: readonly number[], upTo = indexes.reduce((max, index) => Math.max(max, index), -1)): IndexRange[] {
  const present = new Set(indexes);
  const ranges: IndexRange[] = [];
  for (let index = 0; index <= upTo; index++) {
    if (present.has(index)) continue;
    const open = ranges.at(-1);
    if (open && open.to === index - 1) open.to = index;
    else ranges.push({ from: index, to: index });
  }
  return ranges;
}

/** `5`, `5–7`, joined with commas. */
export function formatRanges(ranges: readonly IndexRange[]): string {
  return ranges.map((range) => (range.from === range.to ? `${range.from}` : `${range.from}–${range.to}`)).join(", ");
}

/**
 * Recently written traces stay open, so a busy session costs one write per
 * batch, not open+write+close; sized for hundreds of concurrent sessions
 * (Node raises the descriptor limit to the hard limit at start).
 */
const openTraces = new Map<string, number>();
const MAX_OPEN_TRACES = 512;

function openTrace(file: string): number {
  let fd = openTraces.get(file);
  if (fd === undefined) {
    fd = openForAppend(file);
    if (openTraces.size >= MAX_OPEN_TRACES) closeTrace(openTraces.keys().next().value!);
  } else {
    openTraces.delete(file);
  }
  openTraces.set(file, fd);
  return fd;
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

/** Closes the trace files this process holds open (store shutdown); a store opened later checks them again. */
export function closeTraces(): void {
  for (const file of [...openTraces.keys()]) closeTrace(file);
  checkedFiles.clear();
}

const TAIL_CHUNK = 16 * 1024;
/** Beyond this, the last line is not looked for from the tail (the whole file is read instead). */
const MAX_TAIL = 64 * 1024 * 1024;
/** Every line starts `{"type":"...","index":N,` (the order `toNdjson` and stored replay write). */
const LINE_INDEX = /^\{"type":"[^"\\]*","index":(\d+),/;

/**
 * The index on the file's last line, read from the end only, and whether the
 * file ends without a newline (a crash mid-write). `lastIndex` is -1 for an
 * empty file, undefined when the last line cannot be read that way.
 */
function tailOf(fd: number): { lastIndex: number | undefined; torn: boolean } {
  const size = fstatSync(fd).size;
  if (size === 0) return { lastIndex: -1, torn: false };
  let end = size;
  let buffer = Buffer.alloc(0);
  // Read backwards until the newline before the last line.
  for (;;) {
    const start = Math.max(0, end - TAIL_CHUNK);
    const chunk = Buffer.alloc(end - start);
    readSync(fd, chunk, 0, chunk.length, start);
    buffer = Buffer.concat([chunk, buffer]);
    end = start;
    const torn = buffer[buffer.length - 1] !== 0x0a;
    const body = torn ? buffer : buffer.subarray(0, buffer.length - 1);
    const newline = body.lastIndexOf(0x0a);
    if (newline >= 0 || start === 0) {
      if (torn) return { lastIndex: undefined, torn: true };
      const match = LINE_INDEX.exec(body.subarray(newline + 1, newline + 1 + 512).toString("utf8"));
      return { lastIndex: match ? Number(match[1]) : undefined, torn: false };
    }
    if (buffer.length >= MAX_TAIL) return { lastIndex: undefined, torn };
  }
}
