import { isDeepStrictEqual, inspect } from "node:util";
import { brand } from "./brand.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { ZodLike } from "./tools.ts";
import { checkSchema } from "./validate-schema.ts";

export interface AssertionOutcome {
  passed: boolean;
  message: string;
}

/** A reusable check for `t.check(value, assertion)`. */
export interface Assertion {
  name: "includes" | "matches" | "satisfies" | "equals";
  label: string;
  check(value: unknown): AssertionOutcome;
}

/** The recorded result handle; `.soft()` keeps it tracked but non-blocking (fails only under `--strict`). */
export interface AssertionHandle {
  soft(): AssertionHandle;
}

/**
 * What `t.judge(...)` returns: the grade is asynchronous, and `.soft()` may
 * be called on it before or after awaiting (`await t.judge("...").soft()`).
 * A judge left unawaited is still waited for before the case ends.
 */
export interface JudgeAssertion extends Promise<AssertionHandle> {
  soft(): Promise<AssertionHandle>;
}

export interface EvalTurn {
  reply: string;
  sessionId: string;
  events: AnyBdkEvent[];
}

/** The `t` API of an eval case (implemented by the eval runner). */
export interface EvalT {
  send(message: string, options?: { workspaceFiles?: Record<string, string> }): Promise<EvalTurn>;
  readonly reply: string;
  readonly sessionId: string;
  readonly events: AnyBdkEvent[];
  succeeded(): AssertionHandle;
  failed(): AssertionHandle;
  calledTool(name: string, options?: { input?: unknown; count?: number }): AssertionHandle;
  notCalledTool(name: string): AssertionHandle;
  toolOrder(names: string[]): AssertionHandle;
  calledSubagent(name: string): AssertionHandle;
  loadedSkill(name: string): AssertionHandle;
  usedNoTools(): AssertionHandle;
  maxToolCalls(count: number): AssertionHandle;
  check(value: unknown, assertion: Assertion): AssertionHandle;
  judge(criterion: string, options?: { on?: string; threshold?: number }): JudgeAssertion;
  approve(): Promise<void>;
  deny(reason?: string): Promise<void>;
}

export type EvalTest = (t: EvalT) => void | Promise<void>;

export interface EvalCase {
  /** One path segment, unique within the file. */
  id: string;
  description?: string;
  /** Overrides the file's and the config's `timeoutMs` for this case. */
  timeoutMs?: number;
  test: EvalTest;
}

interface EvalCommon {
  description?: string;
  tags?: string[];
  /** Repeat each case N times and report the pass rate. */
  iterations?: number;
  timeoutMs?: number;
}

/** Either one `test` or a list of `cases`. */
export type EvalDefinition = EvalCommon & ({ test: EvalTest; cases?: never } | { cases: EvalCase[]; test?: never });

export interface EvalConfigDefinition {
  maxConcurrency?: number;
  timeoutMs?: number;
  judge?: { model: string };
}

/**
 * `evals/**\/<id>.eval.ts`: one eval, default-exported (or an array of them).
 *
 * @example
 * export default defineEval({ async test(t) { await t.send("Hi"); t.succeeded(); } });
 */
export function defineEval<T extends EvalDefinition>(definition: T): T {
  return brand("eval", definition);
}

/** `evals/evals.config.ts`, required once any eval exists. */
export function defineEvalConfig<T extends EvalConfigDefinition>(definition: T): T {
  return brand("eval-config", definition);
}

function show(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** The value contains the substring, or matches the RegExp. */
export function includes(expected: string | RegExp): Assertion {
  const label = `includes ${expected instanceof RegExp ? String(expected) : JSON.stringify(expected)}`;
  return {
    name: "includes",
    label,
    check(value) {
      const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
      const passed = expected instanceof RegExp ? new RegExp(expected.source, expected.flags.replace("g", "")).test(text) : text.includes(expected);
      return { passed, message: passed ? `${show(value)} ${label}` : `expected ${show(value)} to satisfy ${label}` };
    },
  };
}

/** The value parses with the zod schema. */
export function matches(schema: ZodLike): Assertion {
  return {
    name: "matches",
    label: "matches schema",
    check(value) {
      const result = checkSchema(schema, value);
      if (result.ok) return { passed: true, message: `${show(value)} matches the schema` };
      return { passed: false, message: `${show(value)} does not match the schema: ${result.message}` };
    },
  };
}

/** The predicate returns true (a throw counts as failure). */
export function satisfies(predicate: (value: unknown) => boolean, label = "satisfies predicate"): Assertion {
  return {
    name: "satisfies",
    label,
    check(value) {
      try {
        const passed = Boolean(predicate(value));
        return { passed, message: passed ? `${show(value)}: ${label}` : `${show(value)} fails: ${label}` };
      } catch (error) {
        return { passed: false, message: `${show(value)}: ${label} threw ${(error as Error).message}` };
      }
    },
  };
}

/** Deep strict equality. */
export function equals(expected: unknown): Assertion {
  return {
    name: "equals",
    label: `equals ${show(expected)}`,
    check(value) {
      const passed = isDeepStrictEqual(value, expected);
      return { passed, message: passed ? `${show(value)} equals the expected value` : `expected ${show(expected)}, got ${show(value)}` };
    },
  };
}
