import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  roots.cleanup();
});

/** A real process that takes `name` for `ttlMs` as itself; resolves with its holder id once it holds it. */
async function holderProcess(stateRoot: string, name: string, ttlMs: number): Promise<{ child: ChildProcess; holder: string }> {
  const script = path.join(import.meta.dirname, "testing", "lease-holder.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script, stateRoot, name, String(ttlMs)], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const holder = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`lease holder exited ${code}`)));
  });
  return { child, holder };
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("store.leases", () => {
  it("stays with a live holder process, and passes on at once when it is killed -9", async () => {
    const stateRoot = roots.root();
    const { child } = await holderProcess(stateRoot, "reminders", 120_000);
    const store = roots.open(stateRoot);
    const me = store.leases.processHolder();
    expect(child.exitCode).toBeNull();
    expect(store.leases.tryAcquire("reminders", me, 120_000)).toBe(false);

    await kill9(child);
    expect(store.leases.tryAcquire("reminders", me, 120_000)).toBe(true);
  });

  it("frees the leases of holders that died before this process started (a crash restart)", async () => {
    const stateRoot = roots.root();
    const first = await holderProcess(stateRoot, "schedules", 120_000);
    await kill9(first.child);
    const alive = await holderProcess(stateRoot, "reminders", 120_000);

    const restarted = roots.open(stateRoot);
    const me = restarted.leases.processHolder();
    // A holder process that died on its own would rightly lose its lease: tell that apart from a live one misread as dead.
    expect(alive.child.exitCode).toBeNull();
    expect(alive.child.signalCode).toBeNull();
    expect(restarted.leases.tryAcquire("schedules", me, 120_000)).toBe(true);
    expect(restarted.leases.tryAcquire("reminders", me, 120_000)).toBe(false);
    expect(alive.holder).not.toBe(first.holder);
  });

  it("gives up its lock on close: its leases pass on before they expire", () => {
    const stateRoot = roots.root();
    const a = roots.open(stateRoot);
    const b = roots.open(stateRoot);
    const holderA = a.leases.processHolder();
    expect(a.leases.tryAcquire("schedules", holderA, 120_000)).toBe(true);
    expect(b.leases.tryAcquire("schedules", b.leases.processHolder(), 120_000)).toBe(false);
    a.close();
    expect(b.leases.tryAcquire("schedules", b.leases.processHolder(), 120_000)).toBe(true);
  });
});
