import { describe, expect, it } from "vitest";
import { sessionStatusLabel } from "./session-status.ts";

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
