/**
 * Every `define*` helper marks its value with a non-enumerable brand so
 * discovery can tell what a file exports. `Symbol.for` keeps the brand equal
 * across module copies (the CLI and jiti may each load this file once).
 */
export const BDK_KIND: unique symbol = Symbol.for("bdk.kind") as never;

export type DefinitionKind =
  | "agent"
  | "instructions"
  | "tool"
  | "skill"
  | "connection"
  | "hook"
  | "artifacts"
  | "result"
  | "channel"
  | "schedule"
  | "reminder"
  | "eval"
  | "eval-config"
  | "extension"
  | "extension-mount";

export function brand<T extends object>(kind: DefinitionKind, value: T): T {
  Object.defineProperty(value, BDK_KIND, { value: kind, enumerable: false, configurable: true });
  return value;
}

export function kindOf(value: unknown): DefinitionKind | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  return (value as Record<symbol, DefinitionKind | undefined>)[BDK_KIND];
}
