/**
 * The effects waiting on the open transaction levels of one transaction
 * (its savepoints nested inside it): run on commit of the outermost level,
 * or undone on rollback of the level they were registered in. Shared by both
 * dialects' stores.
 */
interface Level {
  committed: Array<() => void>;
  rolledBack: Array<() => void>;
}

export class TransactionLevels {
  /** Innermost last. */
  private readonly levels: Level[] = [];

  get depth(): number {
    return this.levels.length;
  }

  enter(): void {
    this.levels.push({ committed: [], rolledBack: [] });
  }

  /** The innermost level ended well: its effects and undos go to the enclosing level, or its effects run (it was the outermost). */
  commit(): void {
    const level = this.levels.pop()!;
    const outer = this.levels.at(-1);
    if (outer) {
      outer.committed.push(...level.committed);
      outer.rolledBack.push(...level.rolledBack);
    } else for (const effect of level.committed) effect();
  }

  /** The innermost level rolled back: its undos run, latest first, and its effects are dropped. */
  rollBack(): void {
    const level = this.levels.pop()!;
    for (const undo of level.rolledBack.reverse()) undo();
  }

  /** False when no level is open (the caller runs `effect` itself, at once). */
  afterCommit(effect: () => void): boolean {
    const current = this.levels.at(-1);
    current?.committed.push(effect);
    return current !== undefined;
  }

  onRollback(effect: () => void): void {
    this.levels.at(-1)?.rolledBack.push(effect);
  }
}
