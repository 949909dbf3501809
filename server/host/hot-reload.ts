import { existsSync, type FSWatcher, watch } from "node:fs";
import path from "node:path";
import { agentErrors } from "../discover/diagnostics.ts";
import { loadAgent } from "../load/load-agent.ts";
import type { OpenedAgent } from "./open-agent.ts";
import { checkInChildProcess } from "./reload-check.ts";
import { watchTree } from "./watch-tree.ts";

/**
 * `bdk dev`: reloads the agent when a file under `bot/` or `evals/` changes.
 * Running turns finish on the version they started with (they hold their
 * agent); new turns get the new one. An edit of `evals/` alone keeps the bot
 * version and swaps in the new eval cases, so the Evals tab lists and runs
 * what is on disk. A broken edit keeps the last good version and logs what
 * is wrong; an edit is checked in a child process first, so one whose import
 * never yields ends that check, not the server. `opened.reload` runs a
 * reload now (after "Save as eval case").
 */
export function watchForChanges(opened: OpenedAgent, debounceMs = 100): () => void {
  let timer: NodeJS.Timeout | undefined;
  let reloading: Promise<void> = Promise.resolve();
  const rootDir = opened.agent.rootDir;
  const evalsDir = path.join(rootDir, "evals");
  let stopEvals: (() => void) | undefined;

  const reload = async () => {
    const refused = await checkInChildProcess(rootDir);
    if (refused) {
      opened.logger.error("Reload failed; still running the previous version.", { errors: refused });
      return;
    }
    const loaded = await loadAgent(rootDir);
    const errors = agentErrors(loaded.diagnostics);
    if (!loaded.agent || errors.length > 0) {
      opened.logger.error("Reload failed; still running the previous version.", {
        errors: errors.map((diagnostic) => `${diagnostic.file ?? ""} ${diagnostic.message}`.trim()),
      });
      return;
    }
    opened.diagnostics = loaded.diagnostics;
    if (loaded.agent.version === opened.runtime.agent.version) {
      opened.runtime.replaceAgent({ ...opened.runtime.agent, evals: loaded.agent.evals });
      return;
    }
    opened.runtime.replaceAgent(loaded.agent);
    opened.logger.info(`Reloaded ${loaded.agent.name} (version ${loaded.agent.version}).`);
  };
  const reloadNow = (): Promise<void> => {
    clearTimeout(timer);
    reloading = reloading
      .then(reload)
      .catch((error: Error) => opened.logger.error(`Reload crashed: ${error.message}`))
      .finally(watchEvals);
    return reloading;
  };
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(reloadNow, debounceMs);
  };
  // evals/ may appear while dev runs (the first saved case): watched from then on.
  function watchEvals() {
    if (!stopEvals && existsSync(evalsDir)) stopEvals = watchTree(evalsDir, changed);
  }

  const rootWatcher: FSWatcher = watch(rootDir, (_event, name) => {
    if (name === "evals") changed();
  });
  const stops = [watchTree(opened.agent.botDir, changed), () => rootWatcher.close()];
  watchEvals();
  opened.reload = reloadNow;
  return () => {
    clearTimeout(timer);
    for (const stop of [...stops, stopEvals]) stop?.();
    opened.reload = undefined;
  };
}
