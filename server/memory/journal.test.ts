import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryJournal } from "./journal.ts";

const scratch = () => mkdtempSync(path.join(tmpdir(), "bdk-journal-"));
const record = (n: number) => ({ at: `2025-01-06T07:00:${String(n).padStart(2, "0")}.000Z`, sessionId: `ses_${n}`, turnId: `trn_${n}`, message: `question ${n}`, reply: `answer ${n}` });
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { sessionId: string });

describe("MemoryJournal", () => {
  it("writes records appended at once whole, in order, rotating past the size limit and keeping the newest rotated files", async () => {
    const dir = scratch();
    const errors: unknown[] = [];
    const journal = new MemoryJournal(dir, (error) => errors.push(error), { maxBytes: 400, keepRotated: 2, maxFieldChars: 1000 });
    await Promise.all(Array.from({ length: 12 }, (_, n) => journal.append(record(n))));
    expect(errors).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(["journal-2.jsonl", "journal-3.jsonl", "journal.jsonl"]);
    const all = [...lines(path.join(dir, "journal-2.jsonl")), ...lines(path.join(dir, "journal-3.jsonl")), ...lines(path.join(dir, "journal.jsonl"))];
    // journal-1 was dropped (keepRotated: 2); what is kept is whole and in order.
    expect(all.map((entry) => entry.sessionId)).toEqual(Array.from({ length: 12 }, (_, n) => `ses_${n}`).slice(12 - all.length));
    for (const file of readdirSync(dir)) expect(statSync(path.join(dir, file)).size).toBeLessThanOrEqual(400);
  });

  it("cuts a very long message or reply, saying so", async () => {
    const dir = scratch();
    const journal = new MemoryJournal(dir, () => {}, { maxBytes: 1 << 20, keepRotated: 1, maxFieldChars: 10 });
    await journal.append({ ...record(1), reply: "x".repeat(50) });
    expect(lines(path.join(dir, "journal.jsonl"))[0]).toMatchObject({ reply: "xxxxxxxxxx… [cut at 10 characters]", message: "question 1" });
  });

  it("shares itself into a workspace: a copy of the live file (edits stay local), the rotated files, none that were dropped", async () => {
    const dir = scratch();
    const workspace = scratch();
    const journal = new MemoryJournal(dir, () => {}, { maxBytes: 200, keepRotated: 1, maxFieldChars: 1000 });
    await journal.append(record(1));
    await journal.shareInto(workspace);
    const shared = path.join(workspace, "memory", "journal.jsonl");
    expect(lines(shared).map((entry) => entry.sessionId)).toEqual(["ses_1"]);
    writeFileSync(shared, "tampered\n");
    expect(lines(path.join(dir, "journal.jsonl")).map((entry) => entry.sessionId)).toEqual(["ses_1"]);

    for (let n = 2; n <= 5; n++) await journal.append(record(n));
    await journal.shareInto(workspace);
    expect(readdirSync(path.join(workspace, "memory")).sort()).toEqual(readdirSync(dir).sort());
    expect(lines(shared).at(-1)?.sessionId).toBe("ses_5");
  });

  it("gives each workspace its own copies: a session rewriting a rotated file changes neither the file of record nor another session's", async () => {
    const dir = scratch();
    const [first, second] = [scratch(), scratch()];
    const journal = new MemoryJournal(dir, () => {}, { maxBytes: 200, keepRotated: 5, maxFieldChars: 1000 });
    for (let n = 1; n <= 4; n++) await journal.append(record(n));
    const rotated = readdirSync(dir).filter((name) => name !== "journal.jsonl");
    expect(rotated.length).toBeGreaterThan(0);
    await journal.shareInto(first);
    await journal.shareInto(second);
    const before = readFileSync(path.join(dir, rotated[0]!), "utf8");
    // What a session's write tool does: rewrite the file in place (same inode).
    writeFileSync(path.join(first, "memory", rotated[0]!), "tampered\n");
    expect(readFileSync(path.join(dir, rotated[0]!), "utf8")).toBe(before);
    expect(readFileSync(path.join(second, "memory", rotated[0]!), "utf8")).toBe(before);
  });

  it("does not write through a symlink a session left in its memory folder, nor through a memory folder swapped for one", async () => {
    const dir = scratch();
    const workspace = scratch();
    const outside = scratch();
    const journal = new MemoryJournal(dir, () => {}, { maxBytes: 1 << 20, keepRotated: 1, maxFieldChars: 1000 });
    await journal.append(record(1));
    await journal.shareInto(workspace);
    const victim = path.join(outside, "victim.txt");
    writeFileSync(victim, "keep me\n");
    const shared = path.join(workspace, "memory", "journal.jsonl");
    rmSync(shared);
    symlinkSync(victim, shared);
    await journal.shareInto(workspace);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(lstatSync(shared).isSymbolicLink()).toBe(false);

    rmSync(path.join(workspace, "memory"), { recursive: true });
    symlinkSync(outside, path.join(workspace, "memory"));
    await journal.shareInto(workspace);
    expect(readdirSync(outside)).toEqual(["victim.txt"]);
    expect(lines(shared).map((entry) => entry.sessionId)).toEqual(["ses_1"]);
  });
});
