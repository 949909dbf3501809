import { Badge, type Tone } from "../../ui/Badge.tsx";
import type { Verdict } from "./eval-results.ts";

const tones: Record<Verdict, Tone> = { pass: "green", fail: "red", error: "red", running: "sky", skipped: "neutral", unknown: "neutral" };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge tone={tones[verdict]}>{verdict === "unknown" ? "—" : verdict}</Badge>;
}
