import { afterEach, expect, it, vi } from "vitest";
import { guardedImport, ImportTimeoutError } from "./import-guard.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("counts what load() does before it returns (transpiling, the module's synchronous code) against the deadline, as the watchdog does", async () => {
  // The test's clock for the deadline's timer only: the watchdog thread keeps real time, far from its limit here.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const outcome = guardedImport("/project/bot/tools/slow.ts", "/project", 1000, () => {
    // Transpiling the module (a first load of Babel on a busy machine) took the whole second; then it never settles.
    vi.advanceTimersByTime(1000);
    return new Promise(() => {});
  }).catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(0);
  expect(await Promise.race([outcome, "still waiting"])).toBeInstanceOf(ImportTimeoutError);
});
