/**
 * The value imports of a project module, read from its syntax tree (the
 * TypeScript parser, which reads JavaScript too): comments, strings and
 * `import type` never count, and every spelling of an import clause does.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type ts from "typescript";

let typescript: typeof ts | undefined;
/** The TypeScript compiler takes most of a second to load: only the paths that parse (an import error, `bdk manifest`) pay it. */
function compiler(): typeof ts {
  typescript ??= createRequire(import.meta.url)("typescript") as typeof ts;
  return typescript;
}

export interface ImportBinding {
  /** The name the module binds. */
  local: string;
  /** `default`, `*` for a namespace import, or the exported name of a named import. */
  imported: string;
  /** The module specifier as written. */
  source: string;
}

export function scriptKind(fileName: string): ts.ScriptKind {
  const ts = compiler();
  if (/\.[cm]?tsx?$/.test(fileName)) return fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return fileName.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

export function parseModule(fileName: string, source: string): ts.SourceFile {
  const ts = compiler();
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
}

/** The value bindings of the import declarations of `file` (type-only imports and specifiers left out). */
export function importsOf(file: ts.SourceFile): ImportBinding[] {
  const ts = compiler();
  const bindings: ImportBinding[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    const source = statement.moduleSpecifier.text;
    if (clause.name) bindings.push({ local: clause.name.text, imported: "default", source });
    const named = clause.namedBindings;
    if (named && ts.isNamespaceImport(named)) bindings.push({ local: named.name.text, imported: "*", source });
    if (named && ts.isNamedImports(named)) {
      for (const element of named.elements) {
        if (element.isTypeOnly) continue;
        bindings.push({ local: element.name.text, imported: (element.propertyName ?? element.name).text, source });
      }
    }
  }
  return bindings;
}

/** The value imports of the module at `file`; none when it cannot be read. */
export function readImports(file: string): ImportBinding[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return importsOf(parseModule(file, text));
}

/** The line (1-based) of the first import or `require` of `specifier` in the module at `file`, when it has one. */
export function importLine(file: string, specifier: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const ts = compiler();
  const source = parseModule(file, text);
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isStringLiteralLike(node) && node.text === specifier && isModuleReference(ts, node)) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found && source.getLineAndCharacterOfPosition(found.getStart(source)).line + 1;
}

function isModuleReference(ts: typeof import("typescript"), literal: ts.StringLiteralLike): boolean {
  const parent = literal.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return parent.moduleSpecifier === literal;
  if (ts.isCallExpression(parent)) return parent.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(parent.expression) && parent.expression.text === "require");
  return false;
}
