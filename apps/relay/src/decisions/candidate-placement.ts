import { Action } from '@agp/contracts';

import { BindingScope } from './binding-matcher';
import { Combined, combineDecisions } from './combine-decisions';
import { BindingResult } from './decision.types';

/** What placing a candidate needs to know of a binding: its scope and its group. */
export interface PlacedBinding extends BindingScope {
  bindingId: string;
  groupId: string;
}

/** One side of a compared hop (D55): the action, the groups that said so, and why. */
export interface DecisionSide {
  action: Action;
  policyIds: string[];
  reasons: string[];
}

/** Whether two bindings name the same place: the same level and the same parties (D23). */
export function sameScope(a: BindingScope, b: BindingScope): boolean {
  return (
    a.bindingLevel === b.bindingLevel &&
    a.agentId === b.agentId &&
    a.sourceAgentId === b.sourceAgentId &&
    a.sinkAgentId === b.sinkAgentId &&
    a.channelId === b.channelId
  );
}

/** G7: a candidate stands in for its group's ENFORCE bindings at its place, as promotion would. */
export function replacedBy(candidate: PlacedBinding, enforced: readonly PlacedBinding[]): string[] {
  return enforced
    .filter((b) => b.groupId === candidate.groupId && sameScope(b, candidate))
    .map((b) => b.bindingId);
}

/** D22: the enforced results are reused, not evaluated again. */
export function candidateOutcome(
  enforced: readonly BindingResult[],
  replaces: readonly string[],
  candidate: BindingResult,
  failOpen: boolean,
): Combined {
  const kept = enforced.filter((r) => !replaces.includes(r.bindingId));
  return combineDecisions([...kept, candidate], failOpen);
}

/** A decision's side as a report shows it: the groups of the bindings that were evaluated. */
export function sideOf(decision: {
  action: Action;
  reasons: string[];
  bindings?: readonly BindingResult[];
  ordered?: readonly BindingResult[];
}): DecisionSide {
  const results = decision.bindings ?? decision.ordered ?? [];
  return {
    action: decision.action,
    policyIds: [...new Set(results.map((r) => r.groupId))],
    reasons: decision.reasons,
  };
}
