import { Injectable } from '@nestjs/common';

import { HopDecision } from '../../decisions/decision.types';
import { HitlHolds, HoldOutcome } from '../../hitl/hitl-holds.service';
import { Hop, HopVerdict } from '../pipeline/hop.types';
import { decisionRefusal, holdRefusal } from '../pipeline/refusal-answers';
import { CHAT_METHOD, LlmCall } from './llm-call';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';

/** D33 on the LLM path: a blocked or failed decision as the 403 its sender gets. */
export function refusalOf(
  decision: HopDecision,
  decisionId: string,
  call: LlmCall,
): LlmPathException {
  const { data } = decisionRefusal(decision, decisionId, call.correlationId);
  return decision.action === 'ERROR'
    ? new LlmPathException(LlmPathErrorCode.EvaluationFailed, 'policy evaluation failed', data)
    : new LlmPathException(
        LlmPathErrorCode.Blocked,
        `blocked by policy: ${decision.reasons.join('; ') || 'no reason given'}`,
        data,
      );
}

/**
 * D34 on the LLM path (T22): a held request or completion becomes a HITL request and the agent's
 * call waits; rejected is a 403, still pending a 409 with `hitlRequestId` and `Retry-After`.
 */
@Injectable()
export class LlmHolds {
  constructor(private readonly hitl: HitlHolds) {}

  /** Holds `message` (the hop as its decision left it) and waits for a person, as D34 says. */
  async holdAndWait(
    call: LlmCall,
    hop: Hop,
    message: unknown,
    verdict: Pick<HopVerdict, 'decision' | 'decisionId'>,
    resendDigest: string,
  ): Promise<HoldOutcome> {
    const held = await this.hitl.hold({
      tenantId: call.tenantId,
      protocol: 'REST',
      direction: hop.direction,
      agent: hop.agent,
      source: hop.source,
      sink: hop.sink,
      method: CHAT_METHOD,
      message,
      resendDigest,
      reasons: verdict.decision.reasons,
      policyIds: [...new Set(verdict.decision.bindings.map((b) => b.groupId))],
      decisionId: verdict.decisionId,
      correlationId: call.correlationId,
      expirySeconds: call.hitl.expirySeconds,
    });
    return this.hitl.awaitDecision(held, call.hitl.waitSeconds, call.signal);
  }

  /** D34: a resend with `X-Agp-Hitl-Request-Id` releases an approved hold of the same request. */
  releaseOnResend(
    call: LlmCall,
    hitlRequestId: string,
    resendDigest: string,
  ): Promise<HoldOutcome | undefined> {
    return this.hitl.releaseOnResend(
      call.tenantId,
      call.agentId,
      hitlRequestId,
      resendDigest,
      call.correlationId,
    );
  }
}

/** What the sender of a held hop gets when its hold did not end in a release. */
export function heldRefusal(outcome: HoldOutcome, call: LlmCall): LlmPathException | undefined {
  if (outcome.kind === 'RELEASED') {
    return undefined;
  }
  const { message, data } = holdRefusal(outcome, call.correlationId);
  switch (outcome.kind) {
    case 'REJECTED':
      return new LlmPathException(LlmPathErrorCode.Rejected, message, data);
    case 'PENDING':
      return new LlmPathException(
        LlmPathErrorCode.Held,
        `held for human review; send the same request again with X-Agp-Hitl-Request-Id: ${outcome.request.id} once approved`,
        data,
        { headers: { 'retry-after': String(outcome.retryAfterSeconds) } },
      );
    case 'REFUSED':
      return new LlmPathException(LlmPathErrorCode.Blocked, message, data);
  }
}
