import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { IdleTrim } from "./idle-trim.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it("collects once after the start-up, once after each burst goes quiet, and not again while the server stays idle", () => {
  const collect = vi.fn();
  const trim = new IdleTrim({ quietMs: 1000, collect });
  vi.advanceTimersByTime(5000);
  expect(collect).toHaveBeenCalledTimes(1);
  collect.mockClear();

  trim.touch();
  vi.advanceTimersByTime(500);
  trim.touch();
  vi.advanceTimersByTime(900);
  expect(collect).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1200);
  expect(collect).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(10_000);
  expect(collect).toHaveBeenCalledTimes(1);

  trim.touch();
  vi.advanceTimersByTime(2500);
  expect(collect).toHaveBeenCalledTimes(2);
  trim.stop();
});

it("reaches V8's full collection without --expose-gc", () => {
  const trim = new IdleTrim({ quietMs: 10 });
  trim.touch();
  expect(() => vi.advanceTimersByTime(50)).not.toThrow();
  trim.stop();
});

it("collects within a quarter of a quiet period after the burst has been quiet for one", () => {
  const collect = vi.fn();
  const trim = new IdleTrim({ quietMs: 1000, collect });
  vi.advanceTimersByTime(100);
  trim.touch();
  vi.advanceTimersByTime(1250);
  expect(collect).toHaveBeenCalledTimes(1);
  trim.stop();
});

it("collects soon after the start-up settles, unless requests began a burst first", () => {
  const collect = vi.fn();
  const quiet = new IdleTrim({ quietMs: 30_000, settleMs: 2000, collect });
  vi.advanceTimersByTime(1000);
  quiet.settled();
  vi.advanceTimersByTime(2000);
  expect(collect).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(60_000);
  expect(collect).toHaveBeenCalledTimes(1);
  quiet.stop();

  collect.mockClear();
  const busy = new IdleTrim({ quietMs: 30_000, settleMs: 2000, collect });
  busy.settled();
  vi.advanceTimersByTime(500);
  busy.touch();
  vi.advanceTimersByTime(2000);
  expect(collect).not.toHaveBeenCalled();
  vi.advanceTimersByTime(40_000);
  expect(collect).toHaveBeenCalledTimes(1);
  busy.stop();
});
