import type { DiagnosticCode } from "../discover/diagnostics.ts";

/** A definition that imported fine but is not usable; the loader turns it into a diagnostic on its file. */
export class DefinitionError extends Error {
  constructor(
    readonly code: DiagnosticCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "DefinitionError";
  }
}
