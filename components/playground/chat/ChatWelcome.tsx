import type { AgentInfo } from "../../api/types.ts";
import { commandUsage, type SlashCommand } from "./slash-commands.ts";

/** The empty chat: what this agent is, and a few things to try. */
export function ChatWelcome({ info, commands, onPick }: { info: AgentInfo | undefined; commands: SlashCommand[]; onPick: (text: string) => void }) {
  const tools = (info?.tools ?? []).slice(0, 6);
  const routeCommands = commands.filter((command) => command.route).slice(0, 4);
  const suggestions = ["What can you do?", ...routeCommands.map((command) => `/${command.name} `), "/help"];
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center sm:py-20">
      <div className="flex size-12 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-lg font-bold text-white shadow-lg">
        {(info?.displayName ?? info?.name ?? "B").slice(0, 1).toUpperCase()}
      </div>
      <div>
        <h2 className="text-lg font-semibold tracking-tight">Chat with {info?.displayName ?? info?.name ?? "your agent"}</h2>
        {info?.description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{info.description}</p> : null}
        {tools.length ? (
          <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
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
            className="rounded-full border border-zinc-300 px-3 py-1 text-xs text-zinc-700 hover:border-indigo-400 hover:bg-indigo-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:border-indigo-500 dark:hover:bg-indigo-500/10"
          >
            {text.trim()}
          </button>
        ))}
      </div>
      {routeCommands.length ? (
        <p className="text-xs text-zinc-400">
          Type <kbd className="rounded border border-zinc-300 px-1 font-mono dark:border-zinc-700">/</kbd> for commands such as {commandUsage(routeCommands[0])}
        </p>
      ) : null}
    </div>
  );
}
