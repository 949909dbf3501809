/**
 * Where each session works, and laying that directory out: skills, seed
 * files and agent-tool scripts once per session and bot version, the files
 * a message brings, and removing a session's own directory when the session
 * is deleted.
 */
import { mkdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { planWorkspaceFiles, prepareWorkspace, writeWorkspaceFiles } from "../harness/workspace.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { RecentMap } from "./recent-map.ts";

/** Direct calls outside any session share one workspace. */
export const DIRECT_CALLS_WORKSPACE = "direct-calls";

/** Enough for every session active at once; forgetting one only costs laying it out again. */
const REMEMBERED_WORKSPACES = 4096;

export interface SessionWorkspacesOptions {
  agent: () => ResolvedAgent;
  stateRoot: string;
  /** The directory a session's channel chose when it started (a PR worktree), if any. */
  chosenDir: (sessionId: string) => string | null | undefined;
}

export class SessionWorkspaces {
  /** sessionId → the bot version its workspace was last prepared for. */
  private readonly preparedFor = new RecentMap<string, string>(REMEMBERED_WORKSPACES);
  private readonly made = new RecentMap<string, true>(REMEMBERED_WORKSPACES);

  constructor(private readonly options: SessionWorkspacesOptions) {}

  /**
   * The directory a session works in: the one its channel chose when it
   * started, else `local.workspaceDir` (one directory for every session),
   * else `<local.cwd>/<sessionId>`, else `<stateRoot>/workspaces/<sessionId>`.
   * Relative paths are from the project root. Created on first use.
   */
  dirOf(sessionId: string): string {
    const dir = this.locate(sessionId).dir;
    if (!this.made.get(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.set(dir, true);
    }
    return dir;
  }

  /** Skills, seed files and agent-tool scripts, once per session and bot version. */
  async prepare(sessionId: string, agent: ResolvedAgent): Promise<void> {
    const prepared = this.preparedFor.get(sessionId);
    if (prepared === agent.version) return;
    const agentTools = agent.tools.filter((tool) => tool.execution === "agent");
    if (prepared === undefined && agent.skills.length === 0 && !agent.sandboxDir && agentTools.length === 0) {
      // Nothing to lay out: the directory is the whole workspace (made off the main thread).
      const { dir } = this.locate(sessionId);
      await mkdir(dir, { recursive: true });
      this.made.set(dir, true);
      this.preparedFor.set(sessionId, agent.version);
      return;
    }
    await prepareWorkspace({
      dir: this.dirOf(sessionId),
      rootDir: agent.rootDir,
      agentName: agent.name,
      skills: agent.skills,
      seedDir: agent.sandboxDir,
      agentTools,
    });
    this.preparedFor.set(sessionId, agent.version);
  }

  /** Checks files a message brings against the workspace as it is now; returns their relative paths, throws naming the first bad one. */
  check(sessionId: string, files: Record<string, string>): string[] {
    return planWorkspaceFiles(this.dirOf(sessionId), files).map((file) => file.relative);
  }

  /** Writes the files a message brought; returns their relative paths. */
  write(sessionId: string, files: Record<string, string>): Promise<string[]> {
    return writeWorkspaceFiles(this.dirOf(sessionId), files);
  }

  /**
   * The directory the session owns (`<stateRoot>/workspaces/<id>` or
   * `<local.cwd>/<id>`), to remove with it; undefined for a shared
   * `local.workspaceDir` or a directory its channel chose.
   */
  ownDir(sessionId: string): string | undefined {
    const { dir, own } = this.locate(sessionId);
    return own && path.basename(dir) === sessionId ? dir : undefined;
  }

  /** Removes a directory `ownDir` returned, and forgets the session. */
  async remove(sessionId: string, dir: string): Promise<void> {
    this.preparedFor.delete(sessionId);
    this.made.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }

  private locate(sessionId: string): { dir: string; own: boolean } {
    const { rootDir, config } = this.options.agent();
    const local = config.local;
    // The direct-calls workspace belongs to no session: nothing to look up.
    const chosen = sessionId === DIRECT_CALLS_WORKSPACE ? undefined : this.options.chosenDir(sessionId);
    if (chosen) return { dir: chosen, own: false };
    if (local?.workspaceDir) return { dir: path.resolve(rootDir, local.workspaceDir), own: false };
    const base = local?.cwd ? path.resolve(rootDir, local.cwd) : path.join(this.options.stateRoot, "workspaces");
    return { dir: path.join(base, sessionId), own: sessionId !== DIRECT_CALLS_WORKSPACE };
  }
}
