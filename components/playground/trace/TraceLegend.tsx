const items: Array<[string, string]> = [
  ["turn", "bg-indigo-500"],
  ["step", "bg-sky-400"],
  ["tool", "bg-tone-success-solid"],
  ["subagent", "bg-tone-special-solid"],
  ["approval wait", "bg-amber-400"],
  ["error", "bg-tone-danger-solid"],
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
