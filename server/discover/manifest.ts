/**
 * The plain-JSON result of walking a project: which file provides which
 * capability under which name. Paths are relative to the project root.
 */
export interface NamedFile {
  name: string;
  file: string;
}

export interface SkillEntry extends NamedFile {
  /** `markdown`: skills/<name>.md; `directory`: skills/<name>/SKILL.md (+ siblings); `module`: skills/<name>.ts. */
  form: "markdown" | "directory" | "module";
}

export interface SubagentEntry {
  id: string;
  /** `bot/subagents/<id>/agent.ts`. */
  file: string;
  instructionsFile?: string;
}

export interface InstructionsEntry {
  form: "markdown" | "module" | "directory";
  /** One file, or the directory's files in filename order. */
  files: string[];
}

export interface ProjectManifest {
  /** package.json `name`, else the directory name. */
  name: string;
  /** Absolute project directory. */
  rootDir: string;
  /** `bot` or the legacy `agent`. */
  botDir: string;
  agentFile?: string;
  instructions?: InstructionsEntry;
  tools: NamedFile[];
  skills: SkillEntry[];
  subagents: SubagentEntry[];
  mcpConnections: NamedFile[];
  hostConnections: NamedFile[];
  extensions: NamedFile[];
  channels: NamedFile[];
  hooks: NamedFile[];
  schedules: NamedFile[];
  reminders: NamedFile[];
  artifactsFile?: string;
  resultFile?: string;
  /** Seed files under `bot/sandbox/workspace/`, relative to that folder. */
  sandboxFiles: string[];
  /** `name` is the eval file id. */
  evals: NamedFile[];
  evalsConfigFile?: string;
}
