import { agentErrors } from "../discover/diagnostics.ts";
import { loadAgent } from "../load/load-agent.ts";
import type { OpenedAgent } from "./open-agent.ts";
import { checkInChildProcess } from "./reload-check.ts";
import { watchTree } from "./watch-tree.ts";

/**
 * `bdk dev`: reloads the agent when a file under `bot/` changes. Running
 * turns finish on the version they started with (they hold their agent);
 * new turns get the new one. A broken edit keeps the last good version and
 * logs what is wrong; an edit is checked in a child process first, so one
 * whose import never yields ends that check, not the server.
 */
export function watchForChanges(opened: OpenedAgent, debounceMs = 100): () => void {
  let timer: NodeJS.Timeout | undefined;
  let reloading: Promise<void> = Promise.resolve();

  const reload = async () => {
    const refused = await checkInChildProcess(opened.agent.rootDir);
    if (refused) {
      opened.logger.error("Reload failed; still running the previous version.", { errors: refused });
      return;
    }
    const loaded = await loadAgent(opened.agent.rootDir);
    const errors = agentErrors(loaded.diagnostics);
    if (!loaded.agent || errors.length > 0) {
      opened.logger.error("Reload failed; still running the previous version.", {
        errors: errors.map((diagnostic) => `${diagnostic.file ?? ""} ${diagnostic.message}`.trim()),
      });
      return;
    }
    if (loaded.agent.version === opened.runtime.agent.version) return;
    opened.runtime.replaceAgent(loaded.agent);
    opened.diagnostics = loaded.diagnostics;
    opened.logger.info(`Reloaded ${loaded.agent.name} (version ${loaded.agent.version}).`);
  };

  const stopWatching = watchTree(opened.agent.botDir, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      reloading = reloading.then(reload).catch((error: Error) => opened.logger.error(`Reload crashed: ${error.message}`));
    }, debounceMs);
  });
  return () => {
    clearTimeout(timer);
    stopWatching();
  };
}
