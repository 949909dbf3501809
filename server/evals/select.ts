import { EVAL_SUFFIX, evalFileId } from "../discover/evals.ts";
import type { LoadedEvalCase } from "../load/types.ts";

export interface CaseFilter {
  /** Exact ids or folder prefixes (`orders` selects `orders/known`). */
  ids?: string[];
  /** A case is selected when it has any of these tags. */
  tags?: string[];
}

/** An eval file's path as a shell completes it (`evals/orders.eval.ts`, `./evals/orders/`) names its id (`orders`). */
function asId(pattern: string): string {
  const relative = pattern.replace(/^(?:\.\/)+/, "").replace(/^evals\//, "");
  return EVAL_SUFFIX.test(relative) ? evalFileId(relative) : relative;
}

function matchesId(caseId: string, pattern: string): boolean {
  return [pattern, asId(pattern)].some((candidate) => {
    const folder = candidate.replace(/\/+$/, "");
    return caseId === folder || caseId.startsWith(`${folder}/`);
  });
}

/** The cases a run covers, in id order; `unknownIds` lists ids that select nothing. */
export function selectCases(cases: readonly LoadedEvalCase[], filter: CaseFilter): { cases: LoadedEvalCase[]; unknownIds: string[] } {
  const ids = filter.ids ?? [];
  const tags = filter.tags ?? [];
  const unknownIds = ids.filter((pattern) => !cases.some((evalCase) => matchesId(evalCase.id, pattern)));
  const selected = cases
    .filter((evalCase) => ids.length === 0 || ids.some((pattern) => matchesId(evalCase.id, pattern)))
    .filter((evalCase) => tags.length === 0 || evalCase.tags.some((tag) => tags.includes(tag)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { cases: selected, unknownIds };
}
