/** Evenly spaced "nice" tick offsets (1, 2, 5 × 10ⁿ ms) across a span. */
export function niceTicks(spanMs: number, target = 5): number[] {
  if (spanMs <= 0) return [0];
  const raw = spanMs / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  // Whole milliseconds at least: a span of a few ms would otherwise label its ticks "0ms" several times.
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? raw);
  const ticks: number[] = [];
  for (let t = 0; t <= spanMs + 1e-6; t += step) ticks.push(t);
  return ticks;
}

export function tickLabel(ms: number): string {
  if (ms === 0) return "0";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(2)}s`;
  return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
