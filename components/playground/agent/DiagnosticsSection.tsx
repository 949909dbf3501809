import type { DiagnosticInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { Section } from "../../ui/Section.tsx";
import { cardClass } from "../../ui/styles.ts";

/** What discovery and loading had to say about the project. */
export function DiagnosticsSection({ diagnostics }: { diagnostics: DiagnosticInfo[] }) {
  return (
    <Section title="Diagnostics" count={diagnostics.length}>
      {diagnostics.length === 0 ? (
        <p className="text-sm text-tone-success">No problems found.</p>
      ) : (
        <ul className={`${cardClass} divide-y divide-line`}>
          {diagnostics.map((diagnostic, index) => {
            const level = String(diagnostic.level ?? diagnostic.severity ?? "info");
            return (
              <li key={index} className="flex flex-wrap items-start gap-2 px-4 py-2.5 text-sm">
                <Badge tone={level === "error" ? "danger" : level === "warn" || level === "warning" ? "warning" : "neutral"}>{level}</Badge>
                {diagnostic.code ? <span className="font-mono text-xs text-fg-muted">{diagnostic.code}</span> : null}
                <span className="min-w-0 flex-1 basis-64">{diagnostic.message ?? JSON.stringify(diagnostic)}</span>
                {diagnostic.file ?? diagnostic.path ? <span className="font-mono text-xs text-fg-muted">{diagnostic.file ?? diagnostic.path}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
