import { Injectable } from '@nestjs/common';

import { HopDecision } from '../../decisions/decision.types';
import { Hop, Refusal } from './hop.types';

/** G16: what marks a hop as evaluation traffic in its audit details (`details.evaluation`). */
export interface EvaluationMark {
  packId: string;
  runId: string;
  evaluationId: string;
}

/** One hop a LIVE evaluation's traffic made, as the pipeline decided and recorded it (G17). */
export interface ObservedHop {
  hop: Hop;
  /** The hop's audit event id (D33's `decisionId`). */
  decisionId: string;
  /** Decided by the policies; absent when refused before any policy ran (`refusal`). */
  decision?: HopDecision;
  refusal?: Refusal;
  /** D34: the hold the hop's HUMAN_REVIEW_REQUIRED opened (G18: withdrawn at once). */
  hitlRequestId?: string;
}

/** The hops of one evaluation's traffic, in the order the pipeline saw them. */
export class EvaluationTap {
  readonly hops: ObservedHop[] = [];

  constructor(readonly mark: EvaluationMark) {}

  marked(hop: Hop): Hop {
    return { ...hop, details: { ...hop.details, evaluation: this.mark } };
  }
}

/**
 * G16, G17: a LIVE run drives a traffic path in this process under a correlation id of its own;
 * the pipeline marks and reports the hops of that id here. Only calls under way on this replica
 * are kept (the run and its traffic share the process), so no replica can contradict it.
 */
@Injectable()
export class EvaluationTaps {
  private readonly open = new Map<string, EvaluationTap>();

  /** One tap per correlation id at a time: a run drives its evaluations one after another. */
  listen(correlationId: string, mark: EvaluationMark): { tap: EvaluationTap; close(): void } {
    if (this.open.has(correlationId)) {
      throw new Error(`correlation id ${correlationId} is already observed`);
    }
    const tap = new EvaluationTap(mark);
    this.open.set(correlationId, tap);
    return { tap, close: () => this.open.delete(correlationId) };
  }

  /** Undefined for every hop that is not evaluation traffic: one Map lookup while none runs. */
  tapOf(hop: Hop): EvaluationTap | undefined {
    return this.open.size === 0 ? undefined : this.open.get(hop.correlationId);
  }
}
