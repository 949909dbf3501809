import type { ModelOffer } from "../../api/types.ts";
import { Badge, type Tone } from "../../ui/Badge.tsx";
import { Section } from "../../ui/Section.tsx";
import { cardClass } from "../../ui/styles.ts";

const SOURCE_LABEL: Record<string, string> = {
  instructions: "instructions",
  skills: "skills catalogue",
  workspace: "workspace",
  memory: "recalled memory",
  fork: "fork's instructions",
};

const SOURCE_TONE: Record<string, Tone> = { skills: "info", memory: "special", fork: "warning" };

/** The system prompt exactly as the model reads it, part by part, each marked with where it comes from. */
export function SystemPromptSection({ offer, sessionId }: { offer: ModelOffer; sessionId: string | undefined }) {
  const characters = offer.systemPrompt.reduce((sum, part) => sum + part.text.length, 0);
  return (
    <Section
      title="System prompt"
      actions={
        <span className="text-xs text-fg-muted">
          {sessionId ? "for this session's next turn" : "for a new session"} · {characters.toLocaleString()} characters
        </span>
      }
    >
      <ol className={`${cardClass} divide-y divide-line`}>
        {offer.systemPrompt.map((part, index) => (
          <li key={index} className="space-y-1.5 px-4 py-3" data-testid="prompt-part" data-source={part.source}>
            <Badge tone={SOURCE_TONE[part.source] ?? "neutral"}>{SOURCE_LABEL[part.source] ?? part.source}</Badge>
            <pre className="max-h-72 overflow-auto font-mono text-xs break-words whitespace-pre-wrap text-fg-soft">{part.text}</pre>
          </li>
        ))}
      </ol>
    </Section>
  );
}
