import { HopDecision } from '../../decisions/decision.types';
import { HoldOutcome } from '../../hitl/hitl-holds.service';
import { REFUSALS, Refusal } from './refusal-codes';

/** D41, D33, D34: protocol-neutral; each protocol writes it in its dialect. */
export interface RefusalAnswer {
  refusal: Refusal;
  message: string;
  data: Record<string, unknown>;
}

/** Why a stream ends before every request was answered (D35, D61): each gets this refusal. */
export interface StreamEnding {
  refusal: Refusal;
  reason: string;
}

/** D33: BLOCK is blocked by policy; ERROR (fail closed, D22) is a failed evaluation. */
export function decisionRefusal(
  decision: Pick<HopDecision, 'action' | 'reasons'>,
  decisionId: string,
  correlationId: string,
): RefusalAnswer {
  const refusal = decision.action === 'ERROR' ? REFUSALS.policyError : REFUSALS.blockedByPolicy;
  return {
    refusal,
    message: refusal.message,
    data: { reasons: decision.reasons, decisionId, correlationId },
  };
}

/** D34: what the sender of a held hop gets when its hold did not end in a release. */
export function holdRefusal(
  outcome: Exclude<HoldOutcome, { kind: 'RELEASED' }>,
  correlationId: string,
): RefusalAnswer {
  const data = {
    reasons: outcome.request?.reasons ?? [],
    ...(outcome.request
      ? { decisionId: outcome.request.decisionId, hitlRequestId: outcome.request.id }
      : {}),
    correlationId,
  };
  switch (outcome.kind) {
    case 'REJECTED':
      return { refusal: REFUSALS.reviewRejected, message: REFUSALS.reviewRejected.message, data };
    case 'PENDING':
      return {
        refusal: REFUSALS.reviewPending,
        message: REFUSALS.reviewPending.message,
        data: { ...data, retryAfter: outcome.retryAfterSeconds },
      };
    case 'REFUSED':
      return {
        refusal: REFUSALS.blockedByPolicy,
        message: `release refused: ${outcome.why}`,
        data,
      };
  }
}
