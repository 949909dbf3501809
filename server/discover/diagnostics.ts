/** What discovery and loading report about a project. File paths are relative to the project (`bot/tools/x.ts`). */
export type DiagnosticSeverity = "error" | "warning";

export type DiagnosticCode =
  | "missing_bot_dir"
  | "legacy_dir_ignored"
  | "missing_instructions"
  | "empty_instructions"
  | "multiple_forms"
  | "unknown_directory"
  | "unknown_file"
  | "evals_inside_bot"
  | "subagent_capability_ignored"
  | "invalid_name"
  | "duplicate_name"
  | "wrong_export"
  | "import_failed"
  | "missing_export"
  | "invalid_definition"
  | "invalid_input_schema"
  | "missing_description"
  | "invalid_frontmatter"
  | "invalid_cron"
  | "unset_env"
  | "invalid_extension"
  | "missing_evals_config"
  | "invalid_eval"
  | "duplicate_eval_case"
  | "invalid_slug"
  | "unknown_config_key"
  | "unknown_model"
  | "builtin_tool_shadowed"
  | "unknown_builtin_tool"
  | "unreadable_tsconfig"
  | "invalid_instructions"
  | "unsupported_feature";

export interface Diagnostic {
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  message: string;
  file?: string;
  line?: number;
  hint?: string;
  /**
   * `evals`: a problem of `evals/` only. It is reported by `validate` and stops
   * `bdk eval`, but the agent itself still runs (`run`, `call`, `serve`, `info`).
   */
  scope?: "evals";
}

/** Collects diagnostics in the order they are found. */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  error(code: DiagnosticCode, message: string, extra: Omit<Diagnostic, "severity" | "code" | "message"> = {}): void {
    this.items.push({ severity: "error", code, message, ...extra });
  }

  warning(code: DiagnosticCode, message: string, extra: Omit<Diagnostic, "severity" | "code" | "message"> = {}): void {
    this.items.push({ severity: "warning", code, message, ...extra });
  }
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === "error");
}

/** The errors that keep the agent from running: every error but those of `evals/`. */
export function agentErrors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === "error" && diagnostic.scope !== "evals");
}

/** `bot/tools/x.ts:4  message` (or just the message): how every command and error names a diagnostic. */
export function describeDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.file ? `${diagnostic.file}${diagnostic.line ? `:${diagnostic.line}` : ""}  ` : "";
  return `${where}${diagnostic.message}`;
}
