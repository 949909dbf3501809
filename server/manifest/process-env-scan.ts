/**
 * The environment variables a module reads, from its syntax tree (the
 * TypeScript parser, which reads JavaScript too), so comments and strings
 * never count and the usual spellings do:
 *
 *   process.env.A   process.env["A"]   process.env?.A   globalThis.process.env.A
 *   const { A, B: b } = process.env
 *   const env = process.env; env.A; const { B } = env
 *   import { env } from "node:process"; env.A
 *
 * A computed name (`process.env[name]`) cannot be known and is not reported.
 */
import ts from "typescript";

const PROCESS_MODULES = new Set(["process", "node:process"]);

function scriptKind(fileName: string): ts.ScriptKind {
  if (/\.[cm]?tsx?$/.test(fileName)) return fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return fileName.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/** `(x)`, `x!`, `x as T`, `x satisfies T`, `<T>x` are all `x`. */
function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

/** The statically known property name of `a.b` / `a?.b` / `a["b"]` / `` a[`b`] ``. */
function accessedName(node: ts.Node): { object: ts.Expression; name: string } | undefined {
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) return { object: node.expression, name: node.name.text };
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    return { object: node.expression, name: node.argumentExpression.text };
  }
  return undefined;
}

/** Names bound to `process` and to `process.env` in this module. */
interface Bindings {
  process: Set<string>;
  env: Set<string>;
}

function isProcess(node: ts.Expression, bindings: Bindings): boolean {
  const target = unwrap(node);
  if (ts.isIdentifier(target)) return bindings.process.has(target.text);
  const access = accessedName(target);
  if (access?.name !== "process") return false;
  const owner = unwrap(access.object);
  return ts.isIdentifier(owner) && owner.text === "globalThis";
}

function isEnv(node: ts.Expression, bindings: Bindings): boolean {
  const target = unwrap(node);
  if (ts.isIdentifier(target)) return bindings.env.has(target.text);
  const access = accessedName(target);
  return access?.name === "env" && isProcess(access.object, bindings);
}

/** The property names a `{ A, B: b, "C": c }` pattern takes (a rest element takes no known name). */
function patternNames(pattern: ts.ObjectBindingPattern): string[] {
  const names: string[] = [];
  for (const element of pattern.elements) {
    if (element.dotDotDotToken) continue;
    const key = element.propertyName ?? element.name;
    if (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) names.push(key.text);
  }
  return names;
}

/** Imports of `process` / `env` from the process module, and variables initialised to either; repeated until stable. */
function collectBindings(file: ts.SourceFile): Bindings {
  const bindings: Bindings = { process: new Set(["process"]), env: new Set() };
  const visitImports = (statement: ts.Statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return;
    if (!PROCESS_MODULES.has(statement.moduleSpecifier.text)) return;
    const clause = statement.importClause;
    if (clause?.name) bindings.process.add(clause.name.text);
    const named = clause?.namedBindings;
    if (named && ts.isNamespaceImport(named)) bindings.process.add(named.name.text);
    if (named && ts.isNamedImports(named)) {
      for (const element of named.elements) {
        if ((element.propertyName ?? element.name).text === "env") bindings.env.add(element.name.text);
      }
    }
  };
  file.statements.forEach(visitImports);

  for (let size = -1; size !== bindings.process.size + bindings.env.size; ) {
    size = bindings.process.size + bindings.env.size;
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && node.initializer) {
        if (ts.isIdentifier(node.name)) {
          if (isEnv(node.initializer, bindings)) bindings.env.add(node.name.text);
          else if (isProcess(node.initializer, bindings)) bindings.process.add(node.name.text);
        } else if (ts.isObjectBindingPattern(node.name) && isProcess(node.initializer, bindings)) {
          // const { env } = process; const { env: e } = process
          for (const element of node.name.elements) {
            const key = element.propertyName ?? element.name;
            if (ts.isIdentifier(key) && key.text === "env" && ts.isIdentifier(element.name)) bindings.env.add(element.name.text);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return bindings;
}

/** The environment variable names `source` reads, in order of first appearance. */
export function environmentReads(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const bindings = collectBindings(file);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    const access = accessedName(node);
    if (access && isEnv(access.object, bindings)) names.add(access.name);
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name) && isEnv(node.initializer, bindings)) {
      for (const name of patternNames(node.name)) names.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...names];
}
