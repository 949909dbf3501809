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
import type { SessionRow } from "../store/types.ts";
import { RecentMap } from "./recent-map.ts";

/**
 * Whose workspace: a session's row (the directory its channel chose when it
 * started is on it, so no lookup is needed), or `DIRECT_CALLS_WORKSPACE`.
 */
export type WorkspaceOwner = Pick<SessionRow, "id" | "workspaceDir">;

/** Direct calls outside any session share one workspace. */
export const DIRECT_CALLS_WORKSPACE: WorkspaceOwner = { id: "direct-calls", workspaceDir: null };

/** Enough for every session active at once; forgetting one only costs laying it out again. */
const REMEMBERED_WORKSPACES = 4096;

export interface SessionWorkspacesOptions {
  agent: () => ResolvedAgent;
  stateRoot: string;
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
  dirOf(owner: WorkspaceOwner): string {
    const dir = this.locate(owner).dir;
    if (!this.made.get(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.set(dir, true);
    }
    return dir;
  }

  /** Skills, seed files and agent-tool scripts, once per session and bot version. */
  async prepare(owner: WorkspaceOwner, agent: ResolvedAgent): Promise<void> {
    const prepared = this.preparedFor.get(owner.id);
    if (prepared === agent.version) return;
    const agentTools = agent.tools.filter((tool) => tool.execution === "agent");
    if (prepared === undefined && agent.skills.length === 0 && !agent.sandboxDir && agentTools.length === 0) {
      // Nothing to lay out: the directory is the whole workspace (made off the main thread).
      const { dir } = this.locate(owner);
      await mkdir(dir, { recursive: true });
      this.made.set(dir, true);
      this.preparedFor.set(owner.id, agent.version);
      return;
    }
    await prepareWorkspace({
      dir: this.dirOf(owner),
      rootDir: agent.rootDir,
      agentName: agent.name,
      skills: agent.skills,
      seedDir: agent.sandboxDir,
      agentTools,
    });
    this.preparedFor.set(owner.id, agent.version);
  }

  /** Checks files a message brings against the workspace as it is now; returns their relative paths, throws naming the first bad one. */
  check(owner: WorkspaceOwner, files: Record<string, string>): string[] {
    return planWorkspaceFiles(this.dirOf(owner), files).map((file) => file.relative);
  }

  /** Writes the files a message brought; returns their relative paths. */
  write(owner: WorkspaceOwner, files: Record<string, string>): Promise<string[]> {
    return writeWorkspaceFiles(this.dirOf(owner), files);
  }

  /**
   * The directory the session owns (`<stateRoot>/workspaces/<id>` or
   * `<local.cwd>/<id>`), to remove with it; undefined for a shared
   * `local.workspaceDir` or a directory its channel chose.
   */
  ownDir(owner: WorkspaceOwner): string | undefined {
    const { dir, own } = this.locate(owner);
    return own && path.basename(dir) === owner.id ? dir : undefined;
  }

  /** Removes a directory `ownDir` returned, and forgets the session. */
  async remove(sessionId: string, dir: string): Promise<void> {
    this.preparedFor.delete(sessionId);
    this.made.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }

  private locate(owner: WorkspaceOwner): { dir: string; own: boolean } {
    const { rootDir, config } = this.options.agent();
    const local = config.local;
    if (owner.workspaceDir) return { dir: owner.workspaceDir, own: false };
    if (local?.workspaceDir) return { dir: path.resolve(rootDir, local.workspaceDir), own: false };
    const base = local?.cwd ? path.resolve(rootDir, local.cwd) : path.join(this.options.stateRoot, "workspaces");
    return { dir: path.join(base, owner.id), own: owner.id !== DIRECT_CALLS_WORKSPACE.id };
  }
}
