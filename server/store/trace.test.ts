import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BdkEvent } from "../protocol/events.ts";
import { appendTrace, readTrace, traceFile } from "./trace.ts";
import { alice, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

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
    appendTrace(stateRoot, [event(0), event(1)]);
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
    appendTrace(stateRoot, [event(2)]);
    appendTrace(stateRoot, [event(3)]);
    expect(readTrace(file)).toEqual([event(0), event(2), event(3)]);
  });

  it("sorts events written out of order by two processes", () => {
    const stateRoot = roots.root();
    appendTrace(stateRoot, [event(1)]);
    appendTrace(stateRoot, [event(0)]);
    expect(readTrace(traceFile(stateRoot, "ses_t")).map((e) => e.index)).toEqual([0, 1]);
  });

  it("reports a missing file as not_found", () => {
    expect(() => readTrace(traceFile(roots.root(), "ses_none"))).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});
