import { EmptyState } from "../../ui/EmptyState.tsx";
import { Section } from "../../ui/Section.tsx";
import { cardClass } from "../../ui/styles.ts";
import { namedEntries } from "./named-entries.ts";

/** A simple Agent-tab section for skills, subagents, hooks and extensions. */
export function EntryList({ title, value, empty }: { title: string; value: unknown; empty: string }) {
  const entries = namedEntries(value);
  return (
    <Section title={title} count={entries.length}>
      {entries.length === 0 ? (
        <EmptyState title={empty} className="py-6" />
      ) : (
        <ul className={`${cardClass} divide-y divide-line`}>
          {entries.map((entry, index) => (
            <li key={`${entry.name}-${index}`} className="px-4 py-3">
              <p className="font-mono text-sm font-medium">{entry.name}</p>
              {entry.description ? <p className="mt-0.5 text-sm text-fg-muted">{entry.description}</p> : null}
              {entry.facts.length ? (
                <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted">
                  {entry.facts.map(([key, text]) => (
                    <div key={key} className="flex min-w-0 gap-1">
                      <dt className="shrink-0">{key}</dt>
                      <dd className="truncate font-mono text-fg-soft" title={text}>
                        {text}
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
