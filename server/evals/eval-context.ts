/**
 * The `t` object one iteration of an eval case receives. It drives one
 * conversation through an `EvalTarget`, and records every assertion (all of
 * them, not only the first failure) with a handle whose `.soft()` makes it
 * non-blocking.
 */
import type { Assertion, AssertionHandle, EvalT, EvalTurn, JudgeAssertion } from "../authoring/evals.ts";
import { summarizeTrajectory } from "../harness/trajectory.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { Judge } from "./judge.ts";
import { describeValue } from "./match.ts";
import type { EvalTarget } from "./target.ts";
import * as checks from "./trajectory-checks.ts";
import type { AssertionResult } from "./types.ts";

export interface EvalContextOptions {
  target: EvalTarget;
  /** Session title, e.g. `eval readiness`. */
  title: string;
  dryRun: boolean;
  judge: Judge;
}

const DEFAULT_JUDGE_THRESHOLD = 0.7;

interface TurnState {
  turnId: string;
  events: AnyBdkEvent[];
  ended: boolean;
  /** Approval requests seen and not yet answered by t.approve()/t.deny(). */
  pendingApprovals: string[];
}

export class EvalContext implements EvalT {
  readonly assertions: AssertionResult[] = [];
  readonly sessionIds: string[] = [];
  private session?: { id: string; nextIndex: number };
  private turn?: TurnState;
  private closed = false;
  /** Judge grades still running; the case ends only when they are recorded. */
  private readonly grading = new Set<Promise<AssertionHandle>>();

  constructor(private readonly options: EvalContextOptions) {}

  get reply(): string {
    return this.turn ? summarizeTrajectory(this.turn.events).reply : "";
  }

  get sessionId(): string {
    return this.session?.id ?? "";
  }

  get events(): AnyBdkEvent[] {
    return [...(this.turn?.events ?? [])];
  }

  async send(message: string, options: { workspaceFiles?: Record<string, string> } = {}): Promise<EvalTurn> {
    this.ensureOpen("t.send()");
    if (typeof message !== "string" || message.trim() === "") throw new TypeError("t.send(message) needs a non-empty string");
    const accepted = await this.options.target.send({
      message,
      sessionId: this.session?.id,
      title: this.options.title,
      dryRun: this.options.dryRun,
      workspaceFiles: options.workspaceFiles,
    });
    if (!this.session) {
      this.session = { id: accepted.sessionId, nextIndex: 0 };
      this.sessionIds.push(accepted.sessionId);
    }
    this.turn = { turnId: accepted.turnId, events: [], ended: false, pendingApprovals: [] };
    await this.advance();
    return { reply: this.reply, sessionId: this.sessionId, events: this.events };
  }

  succeeded(): AssertionHandle {
    return this.record("succeeded()", checks.succeeded(this.requireTurn("t.succeeded()")));
  }

  failed(): AssertionHandle {
    return this.record("failed()", checks.failed(this.requireTurn("t.failed()")));
  }

  calledTool(name: string, options: { input?: unknown; count?: number } = {}): AssertionHandle {
    const label = options.input === undefined && options.count === undefined ? "" : `, ${describeValue(options, 120)}`;
    return this.record(`calledTool(${JSON.stringify(name)}${label})`, checks.calledTool(this.requireTurn("t.calledTool()"), name, options));
  }

  notCalledTool(name: string): AssertionHandle {
    return this.record(`notCalledTool(${JSON.stringify(name)})`, checks.notCalledTool(this.requireTurn("t.notCalledTool()"), name));
  }

  toolOrder(names: string[]): AssertionHandle {
    return this.record(`toolOrder(${JSON.stringify(names)})`, checks.toolOrder(this.requireTurn("t.toolOrder()"), names));
  }

  calledSubagent(name: string): AssertionHandle {
    return this.record(`calledSubagent(${JSON.stringify(name)})`, checks.calledSubagent(this.requireTurn("t.calledSubagent()"), name));
  }

  loadedSkill(name: string): AssertionHandle {
    return this.record(`loadedSkill(${JSON.stringify(name)})`, checks.loadedSkill(this.requireTurn("t.loadedSkill()"), name));
  }

  usedNoTools(): AssertionHandle {
    return this.record("usedNoTools()", checks.usedNoTools(this.requireTurn("t.usedNoTools()")));
  }

  maxToolCalls(count: number): AssertionHandle {
    return this.record(`maxToolCalls(${count})`, checks.maxToolCalls(this.requireTurn("t.maxToolCalls()"), count));
  }

  check(value: unknown, assertion: Assertion): AssertionHandle {
    if (typeof assertion?.check !== "function") {
      throw new TypeError("t.check(value, assertion) needs an assertion such as includes(...), matches(...), satisfies(...) or equals(...)");
    }
    return this.record(`check(${assertion.label})`, assertion.check(value));
  }

  judge(criterion: string, options: { on?: string; threshold?: number } = {}): JudgeAssertion {
    let soft = false;
    const graded = this.grade(criterion, options).then((handle) => (soft ? handle.soft() : handle));
    this.grading.add(graded);
    const forget = () => this.grading.delete(graded);
    graded.then(forget, forget);
    return Object.assign(graded, {
      soft() {
        soft = true;
        return graded;
      },
    });
  }

  /** Waits for judge grades the case did not await (`t.judge("...").soft();`); the first failure among them is the case's error. */
  async settle(): Promise<void> {
    while (this.grading.size > 0) await Promise.all([...this.grading]);
  }

  private async grade(criterion: string, options: { on?: string; threshold?: number }): Promise<AssertionHandle> {
    const name = `judge(${describeValue(criterion, 80)})`;
    if (options.on === undefined) this.requireTurn("t.judge()");
    const subject = options.on ?? this.reply;
    const threshold = options.threshold ?? DEFAULT_JUDGE_THRESHOLD;
    const { judge } = this.options;
    if (!judge.available) return this.record(name, { passed: false, message: `skipped: ${judge.reason}` }, { skipped: true });
    try {
      const { score, reason } = await judge.grade(criterion, subject);
      const passed = score >= threshold;
      const message = `${judge.model} scored ${score.toFixed(2)} (${passed ? "≥" : "<"} ${threshold})${reason ? `: ${reason}` : ""}`;
      return this.record(name, { passed, message }, { score });
    } catch (error) {
      return this.record(name, { passed: false, message: `the judge failed: ${messageOf(error)}` });
    }
  }

  approve(): Promise<void> {
    return this.decide("t.approve()", { approved: true });
  }

  deny(reason?: string): Promise<void> {
    return this.decide("t.deny()", { approved: false, reason });
  }

  /**
   * Ends the iteration: later assertions are ignored and later sends fail.
   * A turn left running or parked on an approval is stopped.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.session && this.turn && !this.turn.ended) {
      await this.options.target.stop(this.session.id).catch(() => {});
    }
  }

  private async decide(method: string, decision: { approved: boolean; reason?: string }): Promise<void> {
    this.ensureOpen(method);
    const turn = this.turn;
    const approvalId = turn?.pendingApprovals.shift();
    if (!turn || !approvalId) {
      const why = !turn ? "no message was sent yet" : turn.ended ? "the turn ended without asking for one" : "none was requested";
      throw new Error(`${method}: no approval is pending in the current turn (${why})`);
    }
    await this.options.target.resolveApproval(this.session!.id, approvalId, decision);
    await this.advance();
  }

  /** Follows the current turn until it ends or asks for an approval. */
  private async advance(): Promise<void> {
    const session = this.session!;
    const turn = this.turn!;
    if (turn.ended) return;
    await this.options.target.follow(session.id, session.nextIndex, (event) => {
      session.nextIndex = event.index + 1;
      if (event.turnId !== turn.turnId) return false;
      turn.events.push(event);
      if (event.type === "turn.completed" || event.type === "turn.failed") {
        turn.ended = true;
        return true;
      }
      if (event.type === "action.approval_requested") {
        turn.pendingApprovals.push(event.data.approvalId);
        return true;
      }
      return false;
    });
  }

  private record(name: string, outcome: { passed: boolean; message: string }, extra: { score?: number; skipped?: boolean } = {}): AssertionHandle {
    const result: AssertionResult = { name, passed: outcome.passed, ...extra, severity: "error", message: outcome.message };
    if (!this.closed) this.assertions.push(result);
    const handle: AssertionHandle = {
      soft() {
        result.severity = "warning";
        return handle;
      },
    };
    return handle;
  }

  private requireTurn(method: string): AnyBdkEvent[] {
    if (!this.turn) throw new Error(`${method} needs a turn: await t.send(...) first`);
    return this.turn.events;
  }

  private ensureOpen(method: string): void {
    if (this.closed) throw new Error(`${method} was called after the case ended (timed out or returned without awaiting it)`);
  }
}
