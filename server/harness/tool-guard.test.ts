import { expect, it } from "vitest";
import { guardCall, jsonProblem } from "./tool-guard.ts";

it("names where a value stops being JSON", () => {
  expect(jsonProblem({ orders: [{ id: 1 }], total: 10n })).toBe("BigInt at result.total");
  expect(jsonProblem([1, [2, 3n]])).toBe("BigInt at result[1][1]");
  const node: Record<string, unknown> = { name: "root" };
  node["the parent"] = { child: node };
  expect(jsonProblem(node)).toBe('a circular reference at result["the parent"].child');
  expect(jsonProblem({ when: { toJSON: () => { throw new Error("no clock"); } } })).toBe("toJSON threw at result.when: no clock");
  expect(jsonProblem({ get broken() { throw new Error("gone"); } })).toBe("reading result.broken threw: gone");
});

it("accepts what JSON.stringify takes, shared (not circular) references and toJSON included", () => {
  const shared = { id: 1 };
  expect(jsonProblem({ a: shared, b: shared, when: new Date(0), skip: () => 1, nothing: undefined })).toBeUndefined();
});

it("hands the call a signal that fires at its time limit, and stops waiting for a call that ignores it", async () => {
  let seen: AbortSignal | undefined;
  const outcome = await guardCall((signal) => {
    seen = signal;
    return new Promise(() => {});
  }, { signal: new AbortController().signal, timeoutMs: 20 });
  expect(outcome).toMatchObject({ settled: false, why: "timed out" });
  expect(seen?.aborted).toBe(true);
});

it("keeps the result of a call that stops when asked", async () => {
  const stop = new AbortController();
  const outcome = guardCall(
    (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped politely")))),
    { signal: stop.signal, timeoutMs: Number.POSITIVE_INFINITY },
  );
  stop.abort();
  expect(await outcome).toMatchObject({ settled: true, error: new Error("stopped politely") });
});

it("reports a value nested 100,000 levels deep instead of overflowing the stack, and finds a BigInt at the bottom", () => {
  const deep = (bottom: unknown) => {
    let value: unknown = bottom;
    for (let i = 0; i < 100_000; i++) value = [value];
    return value;
  };
  expect(jsonProblem(deep(1))).toMatch(/^nested too deeply to store as JSON \(\d+ levels\)$/);
  expect(jsonProblem(deep(1n))).toMatch(/^BigInt at result(\[0\]){10}…\(99980 levels\)…(\[0\]){10}$/);
  let object: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 100_000; i++) object = { next: object };
  expect(jsonProblem(object)).toMatch(/^nested too deeply/);
});
