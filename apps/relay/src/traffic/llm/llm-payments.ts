import { Injectable } from '@nestjs/common';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop, HopOutcome } from '../pipeline/hop.types';
import { PaymentRejection } from '../pipeline/payment-events';
import { RefusalAnswer } from '../pipeline/refusal-answers';
import { REFUSALS } from '../pipeline/refusal-codes';
import { JudgedPayment, X402Payments } from '../payments/x402-payments';
import { ChatRequest } from './chat-messages';
import { LlmCall, llmPaymentCallOf } from './llm-call';
import { providersFor } from './llm-completions';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';

/**
 * D48, D60 on the LLM path (payments.md PY16–PY18): a provider's x402 payment judged as on the
 * other paths, and pinned to the provider whose 402 it answers.
 */
@Injectable()
export class LlmPayments {
  constructor(
    private readonly payments: X402Payments,
    private readonly pipeline: HopPipeline,
  ) {}

  /**
   * PY4, PY16: the request's payment, matched against what any of the gateway's providers asked
   * this agent for, then gated (PY11); refused (audited BLOCK first) when it is invalid, over a
   * budget, or asked for by a provider that does not serve the request's model.
   */
  async judge(
    call: LlmCall,
    hop: Hop,
    request: ChatRequest,
    gated: boolean,
  ): Promise<JudgedPayment | undefined> {
    const providerIds = call.route.gateway.providers.map((p) => p.id);
    const paying = llmPaymentCallOf(call, providerIds);
    const judged = await this.payments.judge(paying, call.agentHeaders, gated);
    if (!judged) {
      return undefined;
    }
    if (judged.kind === 'refused') {
      throw await this.refused(hop, judged.answer);
    }
    const serving = providersFor(call, request.model).map((p) => p.id);
    if (judged.offeredBy && !serving.includes(judged.offeredBy)) {
      const text = `the payment was asked for by LLM provider ${judged.offeredBy}, which does not serve the model ${request.model}`;
      await this.payments.abandoned(paying, judged, 'invalid', text);
      const refusal = REFUSALS.paymentRefused;
      throw await this.refused(hop, {
        refusal,
        message: refusal.message,
        data: { reasons: [text], correlationId: call.correlationId },
      });
    }
    return judged;
  }

  /** PY8: the paid hop's refusal by a policy or a reviewer is the payment's too. */
  judgedHop<O extends HopOutcome<unknown>>(
    call: LlmCall,
    judged: JudgedPayment,
    outcome: O,
  ): Promise<O> {
    return this.payments.judgedHop(this.paymentCallOf(call, judged), judged, outcome);
  }

  /** PY17: a judged payment whose call was refused after it (a budget of the call itself). */
  abandoned(
    call: LlmCall,
    judged: JudgedPayment,
    reason: PaymentRejection,
    text: string,
  ): Promise<void> {
    return this.payments.abandoned(this.paymentCallOf(call, judged), judged, reason, text);
  }

  private paymentCallOf(call: LlmCall, judged: JudgedPayment): ReturnType<typeof llmPaymentCallOf> {
    return llmPaymentCallOf(call, judged.offeredBy ? [judged.offeredBy] : []);
  }

  /** PY4: the request hop audited BLOCK, then the path's refusal (402's never reach a provider). */
  private async refused(hop: Hop, answer: RefusalAnswer): Promise<LlmPathException> {
    const reasons = answer.data.reasons as string[];
    const { decisionId, audited } = this.pipeline.refusing(hop, {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason: reasons.join('; '),
    });
    await audited;
    const code =
      answer.refusal.agpCode === REFUSALS.budgetExceeded.agpCode
        ? LlmPathErrorCode.BudgetExceeded
        : LlmPathErrorCode.PaymentRefused;
    return new LlmPathException(code, `${answer.message}: ${reasons.join('; ')}`, {
      ...answer.data,
      decisionId,
    });
  }
}
