import { Action } from '@agp/contracts';

import { BindingResult, Detection, MaskEntry } from './decision.types';

/** D22: BLOCK > HUMAN_REVIEW_REQUIRED > MASK > WARN > LOG. ERROR ranks above all when failing closed. */
const SEVERITY: Readonly<Record<Action, number>> = {
  ERROR: 6,
  BLOCK: 5,
  HUMAN_REVIEW_REQUIRED: 4,
  MASK: 3,
  WARN: 2,
  LOG: 1,
};

export interface Combined {
  action: Action;
  isBlocked: boolean;
  reasons: string[];
  mask: MaskEntry[];
  detections: Detection[];
  /** The binding results in reporting order: most severe first, then lower priority number. */
  ordered: BindingResult[];
}

/** D22: most severe wins; an ERROR blocks unless the tenant fails open; lower priority first. */
export function combineDecisions(results: readonly BindingResult[], failOpen: boolean): Combined {
  const ordered = [...results].sort(
    (a, b) =>
      SEVERITY[b.action] - SEVERITY[a.action] ||
      a.priority - b.priority ||
      a.bindingId.localeCompare(b.bindingId),
  );
  const counted = failOpen ? ordered.filter((r) => r.action !== 'ERROR') : ordered;
  const action: Action = counted[0]?.action ?? 'LOG';
  return {
    action,
    isBlocked: action === 'BLOCK' || action === 'ERROR',
    reasons: counted.flatMap((r) =>
      r.action === 'ERROR' ? [`policy ${r.groupName} failed: ${r.error ?? 'error'}`] : r.reasons,
    ),
    mask: counted.flatMap((r) => r.mask),
    detections: counted.flatMap((r) => r.detections),
    ordered,
  };
}

export function severityOf(action: Action): number {
  return SEVERITY[action];
}
