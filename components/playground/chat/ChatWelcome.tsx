import type { AgentInfo } from "../../api/types.ts";
import { commandUsage, type SlashCommand } from "./slash-commands.ts";

/** The empty chat: what this agent is, and a few things to try. */
export function ChatWelcome({ info, commands, onPick }: { info: AgentInfo | undefined; commands: SlashCommand[]; onPick: (text: string) => void }) {
  const tools = (info?.tools ?? []).slice(0, 6);
  const routeCommands = commands.filter((command) => command.route).slice(0, 4);
  const suggestions = ["What can you do?", ...routeCommands.map((command) => `/${command.name} `), "/help"];
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center sm:py-20">
      <div className="flex size-12 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-from to-brand-to text-lg font-bold text-fg-on-accent shadow-lg">
        {(info?.displayName ?? info?.name ?? "B").slice(0, 1).toUpperCase()}
      </div>
      <div>
        <h2 className="text-lg font-semibold tracking-tight">Chat with {info?.displayName ?? info?.name ?? "your agent"}</h2>
        {info?.description ? <p className="mt-1 text-sm text-fg-muted">{info.description}</p> : null}
        {tools.length ? (
          <p className="mt-2 text-xs text-fg-muted">
            Tools: {tools.map((tool) => tool.name).join(", ")}
            {(info?.tools?.length ?? 0) > tools.length ? "…" : ""}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        {suggestions.map((text) => (
          <button
            key={text}
            type="button"
            onClick={() => onPick(text)}
            className="rounded-full border border-line-strong px-3 py-1 text-xs text-fg-soft hover:border-accent-line hover:bg-accent-soft"
          >
            {text.trim()}
          </button>
        ))}
      </div>
      {routeCommands.length ? (
        <p className="text-xs text-fg-dim">
          Type <kbd className="rounded border border-line-strong px-1 font-mono">/</kbd> for commands such as {commandUsage(routeCommands[0])}
        </p>
      ) : null}
    </div>
  );
}
