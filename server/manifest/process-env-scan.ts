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
 * Names are resolved to their declarations the way TypeScript scopes them
 * (an `env` parameter elsewhere is not the alias), and a method of every
 * object (`process.env.hasOwnProperty(...)`) or any call on `process.env` is
 * not a variable. A computed name (`process.env[name]`) cannot be known and
 * is not reported.
 */
import ts from "typescript";
import { parseModule } from "../load/module-imports.ts";

const PROCESS_MODULES = new Set(["process", "node:process"]);

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

/** Names on every object (`process.env.hasOwnProperty(...)` reads no variable). */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Which declaration a name means where it is used, from the TypeScript
 * binder of a program made of this one file (no lib, no imports resolved):
 * an `env` parameter of one function is not the `env` alias of another.
 */
function checkerFor(file: ts.SourceFile): ts.TypeChecker {
  const options: ts.CompilerOptions = { noLib: true, noResolve: true, allowJs: true, types: [], noEmit: true };
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === file.fileName ? file : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === file.fileName,
    readFile: () => undefined,
  };
  return ts.createProgram({ rootNames: [file.fileName], options, host }).getTypeChecker();
}

type Meaning = "process" | "env" | undefined;

class Resolver {
  private readonly meanings = new Map<ts.Declaration, Meaning>();

  constructor(private readonly checker: ts.TypeChecker) {}

  isProcess(node: ts.Expression): boolean {
    const target = unwrap(node);
    if (ts.isIdentifier(target)) return this.meaningOf(target) === "process";
    const access = accessedName(target);
    if (access?.name !== "process") return false;
    const owner = unwrap(access.object);
    // The built-in globalThis has no declaration in the module.
    return ts.isIdentifier(owner) && owner.text === "globalThis" && !this.checker.getSymbolAtLocation(owner)?.declarations?.length;
  }

  isEnv(node: ts.Expression): boolean {
    const target = unwrap(node);
    if (ts.isIdentifier(target)) return this.meaningOf(target) === "env";
    const access = accessedName(target);
    return access?.name === "env" && this.isProcess(access.object);
  }

  /** What the identifier is bound to here: the global `process` when nothing in the module declares it. */
  private meaningOf(identifier: ts.Identifier): Meaning {
    const declaration = this.checker.getSymbolAtLocation(identifier)?.declarations?.[0];
    if (!declaration) return identifier.text === "process" ? "process" : undefined;
    if (!this.meanings.has(declaration)) {
      // Undecided while being worked out: `const env = env` means nothing.
      this.meanings.set(declaration, undefined);
      this.meanings.set(declaration, this.declared(declaration));
    }
    return this.meanings.get(declaration);
  }

  private declared(declaration: ts.Declaration): Meaning {
    if (ts.isImportSpecifier(declaration)) {
      const imported = (declaration.propertyName ?? declaration.name).text;
      return fromProcessModule(declaration) && imported === "env" ? "env" : undefined;
    }
    if (ts.isImportClause(declaration) || ts.isNamespaceImport(declaration)) return fromProcessModule(declaration) ? "process" : undefined;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      if (this.isEnv(declaration.initializer)) return "env";
      return this.isProcess(declaration.initializer) ? "process" : undefined;
    }
    // const { env } = process; const { env: e } = process
    if (ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent)) {
      const holder = declaration.parent.parent;
      const key = declaration.propertyName ?? declaration.name;
      const initializer = ts.isVariableDeclaration(holder) ? holder.initializer : undefined;
      return initializer && ts.isIdentifier(key) && key.text === "env" && this.isProcess(initializer) ? "env" : undefined;
    }
    return undefined;
  }
}

function fromProcessModule(node: ts.Node): boolean {
  let current: ts.Node | undefined = node;
  while (current && !ts.isImportDeclaration(current)) current = current.parent;
  return current !== undefined && ts.isStringLiteral(current.moduleSpecifier) && PROCESS_MODULES.has(current.moduleSpecifier.text);
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

/** `process.env.x(...)`: a method called on the object, not a variable read. */
function isCalled(node: ts.Node): boolean {
  return ts.isCallExpression(node.parent) && node.parent.expression === node;
}

/** The environment variable names `source` reads, in order of first appearance. */
export function environmentReads(fileName: string, source: string): string[] {
  // Every spelling above names `env`: most modules need no syntax tree at all.
  if (!source.includes("env")) return [];
  const file = parseModule(fileName, source);
  const resolver = new Resolver(checkerFor(file));
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    const access = accessedName(node);
    if (access && !OBJECT_MEMBERS.has(access.name) && !isCalled(node) && resolver.isEnv(access.object)) names.add(access.name);
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name) && resolver.isEnv(node.initializer)) {
      for (const name of patternNames(node.name)) names.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...names];
}
