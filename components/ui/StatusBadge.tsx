import { Badge, type Tone } from "./Badge.tsx";

const toneByStatus: Record<string, Tone> = {
  running: "info",
  queued: "info",
  "needs approval": "warning",
  // A chat waiting for its next message is at rest, not in trouble.
  idle: "neutral",
  completed: "success",
  passed: "success",
  pass: "success",
  failed: "danger",
  fail: "danger",
  error: "danger",
  cancelled: "neutral",
  interrupted: "warning",
};

/** A session, turn or eval status as a coloured pill; "running" pulses. */
export function StatusBadge({ status }: { status: string | undefined }) {
  const value = status ?? "unknown";
  return (
    <Badge tone={toneByStatus[value] ?? "neutral"}>
      {value === "running" || value === "queued" ? <span className="size-1.5 rounded-full bg-current animate-soft-pulse" /> : null}
      {value}
    </Badge>
  );
}
