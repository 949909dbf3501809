import { describe, expect, it } from "vitest";
import { formatTime } from "../../ui/format.ts";
import { sessionStatusLabel, turnOwnershipText } from "./session-status.ts";

describe("sessionStatusLabel", () => {
  const pending = [{ sessionId: "ses_parked" }];

  it("says 'needs approval' for a session with a pending approval, whatever the stored status", () => {
    expect(sessionStatusLabel({ id: "ses_parked", status: "running" }, pending)).toBe("needs approval");
    expect(sessionStatusLabel({ id: "ses_other", status: "running" }, pending)).toBe("running");
  });

  it("calls a chat waiting for its next message idle", () => {
    expect(sessionStatusLabel({ id: "ses_other", status: "waiting" }, pending)).toBe("idle");
  });

  it("keeps an ended session's outcome even if an approval row lingers", () => {
    expect(sessionStatusLabel({ id: "ses_parked", status: "completed" }, pending)).toBe("completed");
    expect(sessionStatusLabel({ id: "ses_parked", status: "failed" }, pending)).toBe("failed");
  });
});

describe("turnOwnershipText", () => {
  const line = { type: "stream.keepalive", at: "2026-03-01T12:00:15.000Z", turnId: "turn_1", turnStatus: "running" } as const;

  it("says what a stalled turn waits for and since when, and which node owns it", () => {
    expect(turnOwnershipText({ ...line, turnStatus: "queued", owner: "web-2:4711", waiting: { for: "slot", since: "2026-03-01T12:00:05.000Z" } })).toBe(
      `waiting for a slot since ${formatTime("2026-03-01T12:00:05.000Z")} · on web-2:4711`,
    );
    expect(turnOwnershipText({ ...line, waiting: { for: "approval", since: "2026-03-01T11:58:02.000Z" } })).toBe(
      `waiting for approval since ${formatTime("2026-03-01T11:58:02.000Z")}`,
    );
  });

  it("shows the owner's lease while it runs, and a lapsed lease as the wait instead", () => {
    expect(turnOwnershipText({ ...line, owner: "web-2:4711", leaseExpiresAt: "2026-03-01T12:00:25.000Z" })).toBe(
      `on web-2:4711 · lease until ${formatTime("2026-03-01T12:00:25.000Z")}`,
    );
    expect(
      turnOwnershipText({ ...line, owner: "web-2:4711", leaseExpiresAt: "2026-03-01T12:00:10.000Z", waiting: { for: "lease", since: "2026-03-01T12:00:10.000Z" } }),
    ).toBe(`waiting for another node to take over (the owner's lease lapsed) since ${formatTime("2026-03-01T12:00:10.000Z")} · on web-2:4711`);
  });

  it("says nothing of a running turn whose owner is unknown", () => {
    expect(turnOwnershipText(line)).toBe("");
  });
});
