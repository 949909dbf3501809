/**
 * The import problems found before and while a project loads, each reported
 * once, where it is: a name a module does not export (from the import scan)
 * and a shared module that failed for all its importers.
 */
import type { LoadContext } from "./context.ts";
import { kitModule, type MissingExport } from "./import-graph.ts";

const LISTED_IMPORTERS = 3;

/** One diagnostic per shared module that failed, however many files import it: "241 tools import bot/lib/x.ts, which failed: ...". */
export function reportFailedModules(ctx: LoadContext, toolsDir: string): void {
  for (const failure of ctx.importer.failedModules()) {
    const count = failure.importers.length;
    const allTools = failure.importers.every((file) => file.startsWith(`${toolsDir}/`));
    const noun = `${count} ${allTools ? "tool" : "file"}${count === 1 ? " imports" : "s import"}`;
    const listed = failure.importers.slice(0, LISTED_IMPORTERS).join(", ");
    const more = count > LISTED_IMPORTERS ? ` and ${count - LISTED_IMPORTERS} more` : "";
    ctx.diagnostics.error("import_failed", `${noun} ${failure.file}, which failed: ${failure.message}`, {
      file: failure.file,
      line: failure.line,
      hint: `${failure.hint ? `${failure.hint} ` : ""}Imported by ${listed}${more}; none of them loaded. Fix ${failure.file} and they all load.`,
    });
  }
}

/** A named import the imported module does not export: at run time it would be `undefined`. */
export function reportMissingExports(ctx: LoadContext, missing: MissingExport[]): void {
  for (const entry of missing) {
    const what = entry.name === "default" ? "a default export" : `"${entry.name}"`;
    ctx.missingExportFiles.add(entry.file);
    ctx.diagnostics.error("missing_export", `imports ${what} from ${entry.module}, which does not export it`, {
      file: entry.file,
      line: entry.line,
      hint: missingExportHint(entry),
    });
  }
}

function missingExportHint({ name, module, suggestion, local }: MissingExport): string {
  if (suggestion) return suggestion;
  const kit = kitModule(module);
  if (!kit) return `Export it from ${module}, or fix the import: as it is, the value is undefined when the code runs.`;
  if (name === "default" && local && local in kit) return `It has no default export. Import it by name: import { ${local} } from "${module}".`;
  return `${module} exports: ${Object.keys(kit).filter((exported) => exported !== "default").join(", ")}.`;
}
