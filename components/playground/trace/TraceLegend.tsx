import { barColor, statusOverride } from "./TimelineRowView.tsx";

const items: Array<[string, string]> = [
  ["turn", barColor.turn],
  ["step", barColor.step],
  ["tool", barColor.tool],
  ["subagent", barColor.subagent],
  ["approval wait", barColor.approval],
  ["error", statusOverride.error],
];

export function TraceLegend() {
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-caption text-fg-muted" aria-label="Legend">
      {items.map(([label, color]) => (
        <li key={label} className="flex items-center gap-1">
          <span className={`size-2 rounded-sm ${color}`} />
          {label}
        </li>
      ))}
    </ul>
  );
}
