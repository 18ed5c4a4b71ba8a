import { Action } from '@agp/contracts';
import { Page } from '@agp/http';

import { DecisionSide } from '../decisions/candidate-placement';

/** D55: how many compared hops went from one action to another (equal pairs included). */
export interface DecisionDiffCount {
  enforcedAction: Action;
  shadowAction: Action;
  count: number;
}

/** The hop a diff is about, as its audit event names it. */
export interface DiffHop {
  protocol?: string;
  direction?: string;
  source?: { type: string; id?: string; label?: string };
  sink?: { type: string; id?: string; label?: string };
  method?: string;
  toolName?: string;
  correlationId?: string;
}

/** One hop whose action would change: the hop (its audit event id), both sides and why. */
export interface DecisionDiffSample {
  hopId: string;
  at: string;
  hop: DiffHop;
  enforced: DecisionSide;
  shadow: DecisionSide;
}

/** What the shadow report and a replay's result share (D55, governance.md G8, G10). */
export interface DecisionDiff {
  from: string;
  to: string;
  /** Hops compared (both sides judged). */
  compared: number;
  /** Of them, hops whose action would change. */
  changed: number;
  counts: DecisionDiffCount[];
  /** The changed hops, oldest first, paged as D31. */
  samples: Page<DecisionDiffSample>;
}
