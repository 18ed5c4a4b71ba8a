import { HopDecision } from '../../decisions/decision.types';
import { AdmissionRefusal } from '../pipeline/admission';
import { HopOutcome } from '../pipeline/hop.types';
import { REFUSALS } from '../pipeline/refusal-codes';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';

/** T19, T22: refusals as problems with OpenAI's `error` and D33–D36's `data`. */

/** D33: a blocked or failed decision as the 403 its sender gets. */
export function decisionRefused(
  decision: Pick<HopDecision, 'action' | 'reasons'>,
  data: Record<string, unknown>,
): LlmPathException {
  return decision.action === 'ERROR'
    ? new LlmPathException(LlmPathErrorCode.EvaluationFailed, 'policy evaluation failed', data)
    : new LlmPathException(
        LlmPathErrorCode.Blocked,
        `blocked by policy: ${decision.reasons.join('; ') || 'no reason given'}`,
        data,
      );
}

/** A hop's outcome that does not go on. */
export type NotDelivered<M> = Extract<HopOutcome<M>, { kind: 'REFUSED' | 'HELD' }>;

/** 403 when refused, rejected or its release refused; 409 with `hitlRequestId` while held. */
export function outcomeRefused<M>(outcome: NotDelivered<M>): LlmPathException {
  switch (outcome.kind) {
    case 'HELD':
      return new LlmPathException(
        LlmPathErrorCode.Held,
        `held for human review; send the same request again with X-Agp-Hitl-Request-Id: ${outcome.request.id} once approved`,
        outcome.answer.data,
        { headers: { 'retry-after': String(outcome.retryAfterSeconds) } },
      );
    case 'REFUSED': {
      const { answer } = outcome;
      if (answer.refusal.agpCode === REFUSALS.paymentRefused.agpCode) {
        // payments.md PY8: a policy's refusal of a paid request refuses its payment.
        const reasons = Array.isArray(answer.data.reasons) ? answer.data.reasons.join('; ') : '';
        return new LlmPathException(
          LlmPathErrorCode.PaymentRefused,
          `${answer.message}${reasons ? `: ${reasons}` : ''}`,
          answer.data,
        );
      }
      if (outcome.decision) {
        return decisionRefused(outcome.decision, answer.data);
      }
      const code =
        answer.refusal.agpCode === 'review_rejected'
          ? LlmPathErrorCode.Rejected
          : LlmPathErrorCode.Blocked;
      return new LlmPathException(code, answer.message, answer.data);
    }
  }
}

/** D32, D35, D36 before any policy: 403 `not_subscribed`, 403 `kill_switch`, 429 with Retry-After. */
export function admissionRefused(
  refused: AdmissionRefusal,
  correlationId: string,
): LlmPathException {
  switch (refused.kind) {
    case 'NOT_SUBSCRIBED':
      return new LlmPathException(LlmPathErrorCode.NotSubscribed, refused.reason, {
        correlationId,
      });
    case 'KILL_SWITCH':
      return new LlmPathException(LlmPathErrorCode.KillSwitch, refused.reason, refused.answer.data);
    case 'RATE_LIMITED':
      return new LlmPathException(
        LlmPathErrorCode.RateLimited,
        refused.reason,
        { correlationId },
        { headers: { 'retry-after': String(refused.retryAfterSeconds) } },
      );
  }
}
