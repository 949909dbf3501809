import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore } from "../../server/store/index.ts";

/** A state root holding `count` finished pr-approver sessions of one turn each, as a restart of a busy server finds it. */
export function fullStateRoot(count: number): string {
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-bench-state-"));
  const store = openStore(stateRoot);
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const id = `ses_BENCHSTART${String(i).padStart(14, "0")}`;
    store.sessions.create({
      id, agent: "pr-approver", title: `session ${i}`, mode: "chat", status: "waiting", channel: "http",
      principal: { type: "user", id: "local" }, continuationToken: `http:${i}`, channelState: null, purpose: null,
      dryRun: false, botVersion: "bench", createdAt: at, updatedAt: at,
    });
    store.events.append(id, [
      { type: "message.received", data: { message: "Inspect https://github.com/acme/checkout/pull/42" } },
      { type: "message.completed", data: { text: "Looks good.", finishReason: "stop" } },
    ]);
  }
  store.close();
  return stateRoot;
}
