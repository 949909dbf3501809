import { Badge, type Tone } from "../../ui/Badge.tsx";
import type { Verdict } from "./eval-results.ts";

const tones: Record<Verdict, Tone> = { pass: "success", fail: "danger", error: "danger", running: "info", skipped: "neutral", unknown: "neutral" };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge tone={tones[verdict]}>{verdict === "unknown" ? "—" : verdict}</Badge>;
}
