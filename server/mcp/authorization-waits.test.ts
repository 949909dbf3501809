import { describe, expect, it } from "vitest";
import { AuthorizationWaits } from "./authorization-waits.ts";

describe("AuthorizationWaits", () => {
  it("wakes every call waiting for a connection, and only those", async () => {
    const waits = new AuthorizationWaits();
    const signal = new AbortController().signal;
    const woken: string[] = [];
    const first = waits.wait("linear", signal).then(() => woken.push("a"));
    const second = waits.wait("linear", signal).then(() => woken.push("b"));
    void waits.wait("github", signal).then(() => woken.push("github"));
    expect(waits.count("linear")).toBe(2);
    waits.release("linear");
    await Promise.all([first, second]);
    expect(woken).toEqual(["a", "b"]);
    expect(waits.count("linear")).toBe(0);
    expect(waits.count("github")).toBe(1);
  });

  it("rejects with the signal's reason when the turn stops first", async () => {
    const waits = new AuthorizationWaits();
    const controller = new AbortController();
    const waiting = waits.wait("linear", controller.signal);
    controller.abort({ code: "cancelled" });
    await expect(waiting).rejects.toEqual({ code: "cancelled" });
    expect(waits.count("linear")).toBe(0);
    await expect(waits.wait("linear", controller.signal)).rejects.toEqual({ code: "cancelled" });
  });
});
