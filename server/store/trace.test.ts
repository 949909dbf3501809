import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BdkEvent } from "../protocol/events.ts";
import { appendTrace, missingRanges, readTrace, type StoredLines, traceFile } from "./trace.ts";
import { RECENT_EVENTS_CHECKED } from "./events.ts";
import { alice, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

/** For traces of sessions the database does not hold: nothing to restore. */
const noneStored: StoredLines = () => "";

const event = (index: number): BdkEvent => ({
  type: "step.started",
  index,
  sessionId: "ses_t",
  at: "2025-01-01T00:00:00.000Z",
  data: { step: index },
});

describe("trace files", () => {
  it("hold exactly the events the database holds, one NDJSON line each", () => {
    const store = roots.open(roots.root());
    const { id } = store.sessions.create({ mode: "chat", channel: "http", principal: alice });
    store.events.append(id, [{ type: "session.started", data: { mode: "chat", channel: "http", principal: alice } }]);
    store.events.append(id, [
      { type: "message.received", turnId: "turn_1", data: { message: "hello" } },
      { type: "session.waiting", data: {} },
    ]);
    const file = traceFile(store.stateRoot, id);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(readTrace(file)).toEqual(store.events.list(id));
  });

  it("reads a file whose last line was cut off", () => {
    const stateRoot = roots.root();
    appendTrace(stateRoot, [event(0), event(1)], noneStored);
    const file = traceFile(stateRoot, "ses_t");
    appendFileSync(file, JSON.stringify(event(2)).slice(0, 20));
    expect(readTrace(file)).toEqual([event(0), event(1)]);
  });

  it("starts a fresh line after a torn write so later events stay readable", () => {
    const stateRoot = roots.root();
    const file = traceFile(stateRoot, "ses_t");
    // What a crashed process leaves behind, before this process first appends to the file.
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(event(0)) + "\n" + JSON.stringify(event(1)).slice(0, 10));
    appendTrace(stateRoot, [event(2)], noneStored);
    appendTrace(stateRoot, [event(3)], noneStored);
    expect(readTrace(file)).toEqual([event(0), event(2), event(3)]);
  });

  it("sorts events written out of order by two processes", () => {
    const stateRoot = roots.root();
    appendTrace(stateRoot, [event(1)], noneStored);
    appendTrace(stateRoot, [event(0)], noneStored);
    expect(readTrace(traceFile(stateRoot, "ses_t")).map((e) => e.index)).toEqual([0, 1]);
  });

  it("keeps one event per index, the last copy, in index order", () => {
    const stateRoot = roots.root();
    const file = traceFile(stateRoot, "ses_t");
    mkdirSync(dirname(file), { recursive: true });
    const rewritten = { ...event(1), data: { step: 99 } };
    writeFileSync(file, [event(0), event(2), event(1), rewritten].map((e) => JSON.stringify(e)).join("\n") + "\n");
    expect(readTrace(file)).toEqual([event(0), rewritten, event(2)]);
  });

  it("names the index ranges a trace lacks", () => {
    expect(missingRanges([0, 1, 4, 5, 9])).toEqual([
      { from: 2, to: 3 },
      { from: 6, to: 8 },
    ]);
    expect(missingRanges([1, 2], 4)).toEqual([
      { from: 0, to: 0 },
      { from: 3, to: 4 },
    ]);
    expect(missingRanges([])).toEqual([]);
  });

  it("restores from the database, at the next open, the lines a crash cut from the end of a trace", () => {
    const stateRoot = roots.root();
    const first = roots.open(stateRoot);
    const { id } = first.sessions.create({ mode: "chat", channel: "http", principal: alice });
    first.events.append(id, [{ type: "session.started", data: { mode: "chat", channel: "http", principal: alice } }]);
    first.events.append(id, [
      { type: "message.received", turnId: "turn_1", data: { message: "hello" } },
      { type: "message.completed", turnId: "turn_1", data: { text: "hi", finishReason: "stop" } },
      { type: "session.waiting", data: {} },
    ]);
    const stored = first.events.list(id);
    first.close();
    // Committed, but the process died before copying the last three events (and tore the copy of the first of them).
    const file = traceFile(stateRoot, id);
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${lines[0]}\n${lines[1].slice(0, 30)}`);

    const reopened = roots.open(stateRoot);
    expect(readTrace(file)).toEqual(stored);
    expect(reopened.logs.list({}).map((line) => line.msg)).toContain(`Restored events 1–3 of ${id} to its trace file from the database.`);
  });

  it("restores missing lines before the next write to a trace whose session the open did not check", () => {
    const stateRoot = roots.root();
    const first = roots.open(stateRoot);
    const quiet = first.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    for (let step = 0; step < 4; step++) first.events.append(quiet, [{ type: "step.started", data: { step } }]);
    // Later events of another session push the first one out of what an open looks at.
    const busy = first.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    first.events.append(busy, Array.from({ length: RECENT_EVENTS_CHECKED }, (_, step) => ({ type: "step.started" as const, data: { step } })));
    first.close();
    const file = traceFile(stateRoot, quiet);
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${lines[0]}\n${lines[1]}\n`);

    const reopened = roots.open(stateRoot);
    expect(readTrace(file).map((e) => e.index)).toEqual([0, 1]);
    reopened.events.append(quiet, [{ type: "step.started", data: { step: 4 } }]);
    expect(readTrace(file)).toEqual(reopened.events.list(quiet));
  });

  it("finds a hole in the middle of a trace when asked to check every line", () => {
    const stateRoot = roots.root();
    const first = roots.open(stateRoot);
    const { id } = first.sessions.create({ mode: "chat", channel: "http", principal: alice });
    for (let step = 0; step < 6; step++) first.events.append(id, [{ type: "step.started", data: { step } }]);
    first.close();
    const file = traceFile(stateRoot, id);
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [lines[0], lines[1], lines[4], lines[5]].join("\n") + "\n");

    const reopened = roots.open(stateRoot);
    expect(readTrace(file).map((e) => e.index)).toEqual([0, 1, 4, 5]);
    expect(reopened.events.repairTrace(id, { whole: true })).toEqual([{ from: 2, to: 3 }]);
    expect(readTrace(file)).toEqual(reopened.events.list(id));
  });

  it("rebuilds a deleted trace from the database on the next write", () => {
    const stateRoot = roots.root();
    const first = roots.open(stateRoot);
    const { id } = first.sessions.create({ mode: "chat", channel: "http", principal: alice });
    first.events.append(id, [{ type: "step.started", data: { step: 0 } }]);
    first.close();
    rmSync(traceFile(stateRoot, id));
    const reopened = roots.open(stateRoot);
    reopened.events.append(id, [{ type: "step.started", data: { step: 1 } }]);
    expect(readTrace(traceFile(stateRoot, id))).toEqual(reopened.events.list(id));
  });

  it("reports a missing file as not_found", () => {
    expect(() => readTrace(traceFile(roots.root(), "ses_none"))).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});
