import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { PaymentInput } from '../../decisions/decision.types';
import { RELAY_DATABASE } from '../../database/tokens';
import { BudgetReservation } from '../../spend/budget-verdict';
import { SpendMeter } from '../../spend/spend-meter.service';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { HopOutcome } from '../pipeline/hop.types';
import {
  PaymentParties,
  PaymentRejection,
  PaymentTerms,
  paymentEvent,
} from '../pipeline/payment-events';
import { RefusalAnswer } from '../pipeline/refusal-answers';
import { REFUSALS, Refusal } from '../pipeline/refusal-codes';
import { PaymentGate } from './payment-gate';
import { matchPayment } from './payment-match';
import { atomicToDecimal } from './payment-amounts';
import { decimalsOf, termsOf } from './payment-price';
import {
  PaymentAttempt,
  PaymentRequiredAnswer,
  Settlement,
  carriesPayment,
  paymentAttemptOf,
  settlementOf,
} from './x402-messages';
import { OfferKey, X402OffersRepository } from './x402-offers.repository';

/** Requirements are kept at least this long, whatever the payee's `maxTimeoutSeconds` (PY9). */
const MIN_OFFER_SECONDS = 60;
const MAX_OFFER_SECONDS = 86_400;

/** A payment call's parties and what the gate needs of its subscription (PY11). */
export interface PaymentCall extends PaymentParties {
  subscriptionId?: string;
  /** PY18: a payment on the LLM path counts under the gateway's budgets too. */
  llmGatewayId?: string;
  /**
   * PY16: who asked for the payment when it is not the payee itself (an LLM gateway's providers):
   * a 402 is kept under the one provider that answered it, a retry matched against those named.
   */
  offeredBy?: { sinkType: string; sinkIds: string[] };
}

/** A payment that may go on: what policies see (`input.payment`), and a person's review if due. */
export interface JudgedPayment {
  kind: 'judged';
  attempt: PaymentAttempt;
  payment: PaymentTerms;
  /** The asset's decimals, to price what settles (PY13). */
  decimals: number;
  input: PaymentInput;
  /** PY6, PY11: the gate's reason to hold it for a person. */
  review?: string;
  /** SP8: what the budgets reserved for it, settled into the ledger or given back. */
  reservation?: BudgetReservation;
  /** PY16: the one that asked for it, of `PaymentCall.offeredBy`: the payment goes there only. */
  offeredBy?: string;
}

/** A payment refused before any policy ran: already recorded as X402_PAYMENT_REJECTED. */
export interface RefusedPayment {
  kind: 'refused';
  answer: RefusalAnswer;
}

/**
 * D48, D60: x402 on a traffic path, protocol-neutral (payments.md PY1–PY14). A path asks
 * `judge` before a request goes on, `required` and `settled` about the answer.
 */
@Injectable()
export class X402Payments {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly offers: X402OffersRepository,
    private readonly pipeline: HopPipeline,
    private readonly gate: PaymentGate,
    private readonly spend: SpendMeter,
  ) {}

  /**
   * PY2: a 402 with requirements is kept for the payer's retry and recorded as
   * X402_PAYMENT_REQUIRED; after a forwarded payment it is the payee's refusal of it (PY13).
   */
  async required(
    call: PaymentCall,
    required: PaymentRequiredAnswer,
    forwarded?: JudgedPayment,
  ): Promise<void> {
    const longest = Math.max(0, ...required.accepts.map((a) => a.maxTimeoutSeconds || 0));
    const seconds = Math.min(MAX_OFFER_SECONDS, Math.max(MIN_OFFER_SECONDS, longest));
    await this.database.inTenant(call.tenantId, (tx) =>
      this.offers.keep(tx, keyOf(call), required, new Date(Date.now() + seconds * 1000)),
    );
    if (forwarded) {
      await this.spend.release(forwarded.reservation);
      await this.pipeline.recordPayment(call, {
        type: 'X402_PAYMENT_REJECTED',
        payment: forwarded.payment,
        reason: 'payee',
        text: required.error ?? 'the payee answered 402 to the payment',
      });
      return;
    }
    const priced: PaymentTerms[] = [];
    for (const offer of required.accepts) {
      const terms = await termsOf(offer);
      if (typeof terms !== 'string') {
        priced.push(terms);
      }
    }
    // PY7: requirements in an asset the relay cannot price are recorded without an amount.
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_REQUIRED',
      ...(priced[0] ? { payment: priced[0] } : {}),
      accepts: priced,
      ...(required.error ? { error: required.error } : {}),
    });
  }

  /**
   * PY4–PY6, PY11: a request's payment against what the payee asked for, priced, and through the
   * gate; undefined when the request carries none. A refusal is recorded before it returns.
   */
  async judge(
    call: PaymentCall,
    headers: Record<string, string | string[] | undefined>,
    gated = true,
  ): Promise<JudgedPayment | RefusedPayment | undefined> {
    if (!carriesPayment(headers)) {
      return undefined;
    }
    const attempt = paymentAttemptOf(headers);
    if (typeof attempt === 'string') {
      return this.refuse(call, 'invalid', attempt);
    }
    const seen = await this.database.inTenant(call.tenantId, (tx) =>
      call.offeredBy
        ? this.offers.recentOfAny(tx, {
            tenantId: call.tenantId,
            payerId: call.payer.id,
            ...call.offeredBy,
          })
        : this.offers.recent(tx, keyOf(call)),
    );
    const matched = matchPayment(attempt, seen);
    if (matched.kind === 'invalid') {
      return this.refuse(call, 'invalid', matched.text);
    }
    const offeredBy = call.offeredBy
      ? seen.find((s) => s.accepts.includes(matched.offer))?.sinkId
      : undefined;
    const [payment, decimals] = await Promise.all([
      termsOf(matched.offer, matched.amountAtomic),
      decimalsOf(matched.offer),
    ]);
    if (typeof payment === 'string') {
      return this.refuse(call, 'invalid', payment);
    }
    if (decimals === undefined) {
      return this.refuse(call, 'invalid', `the relay cannot price asset ${payment.asset}`);
    }
    const judged: JudgedPayment = {
      kind: 'judged',
      attempt,
      payment,
      decimals,
      input: { ...payment, amount: Number(payment.amountUsd) },
      ...(offeredBy ? { offeredBy } : {}),
    };
    if (!gated) {
      return judged;
    }
    const gate = await this.gate.check({
      tenantId: call.tenantId,
      agentId: call.payer.id,
      ...(call.subscriptionId ? { subscriptionId: call.subscriptionId } : {}),
      ...(call.llmGatewayId ? { llmGatewayId: call.llmGatewayId } : {}),
      payment,
    });
    const reserved =
      gate.kind !== 'REFUSE' && gate.reservation ? { reservation: gate.reservation } : {};
    switch (gate.kind) {
      case 'ALLOW':
        return { ...judged, ...reserved };
      case 'REVIEW':
        return { ...judged, ...reserved, review: gate.reason };
      case 'REFUSE':
        return this.refuse(call, gate.reason, gate.text, payment, REFUSALS.budgetExceeded, {
          ...(gate.budgetId ? { budgetId: gate.budgetId } : {}),
        });
    }
  }

  /**
   * PY8: the payment's request hop came to `outcome`: a policy's refusal becomes −31007 and a
   * reviewer's stays −31003, each recorded as X402_PAYMENT_REJECTED; anything else is unchanged.
   */
  async judgedHop<O extends HopOutcome<unknown>>(
    call: PaymentCall,
    judged: JudgedPayment,
    outcome: O,
  ): Promise<O> {
    if (outcome.kind !== 'REFUSED') {
      return outcome;
    }
    const reasons = outcome.answer.data.reasons;
    const text =
      Array.isArray(reasons) && reasons.length > 0 ? reasons.join('; ') : outcome.answer.message;
    const reason: PaymentRejection = outcome.cause === 'DECISION' ? 'policy' : 'reviewer';
    const decisionId = outcome.answer.data.decisionId;
    await outcome.audited;
    await this.spend.release(judged.reservation);
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_REJECTED',
      payment: judged.payment,
      reason,
      text,
      ...(typeof decisionId === 'string' ? { decisionId } : {}),
    });
    if (reason === 'reviewer') {
      return outcome;
    }
    const refusal = REFUSALS.paymentRefused;
    return { ...outcome, answer: { ...outcome.answer, refusal, message: refusal.message } };
  }

  /** PY10: the payment goes on; durable before the payee can act on it (T1). */
  attempted(call: PaymentCall, judged: JudgedPayment, decisionId?: string): Promise<void> {
    return this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_ATTEMPT',
      payment: judged.payment,
      ...(decisionId ? { decisionId } : {}),
    });
  }

  /** PY13: the payee's answer to a forwarded payment, other than a 402 (see `required`). */
  async settled(
    call: PaymentCall,
    judged: JudgedPayment,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<Settlement | undefined> {
    const settlement = settlementOf(headers);
    if (settlement?.success) {
      const paid = withSettledAmount(judged.payment, settlement, judged.decimals);
      const event = paymentEvent(call, {
        type: 'X402_PAYMENT_SUCCESS',
        payment: paid,
        ...(settlement.transaction ? { transaction: settlement.transaction } : {}),
        ...(settlement.payer ? { payer: settlement.payer } : {}),
      });
      // SP12: the settled amount in the ledger, its reservation given back; a soft limit it
      // reached is named on the event, which the audit service raises as an alert (SP11).
      const alerts = await this.spend.recordPayment(
        {
          id: randomUUID(),
          subject: {
            tenantId: call.tenantId,
            agentId: call.payer.id,
            ...(call.subscriptionId ? { subscriptionId: call.subscriptionId } : {}),
            ...(call.llmGatewayId ? { llmGatewayId: call.llmGatewayId } : {}),
          },
          payee: {
            type: call.payee.type,
            id: call.payee.id,
            ...(call.payee.name ? { label: call.payee.name } : {}),
          },
          payment: paid,
          correlationId: call.correlationId,
          eventId: event.id,
        },
        judged.reservation,
      );
      if (alerts.length > 0) {
        event.data.details = { ...event.data.details, budgetAlerts: alerts };
      }
      await this.pipeline.recordPaymentEvent(event);
      return settlement;
    }
    await this.spend.release(judged.reservation);
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_REJECTED',
      payment: judged.payment,
      reason: 'payee',
      text: settlement
        ? `the payee did not settle: ${settlement.errorReason ?? 'no reason given'}`
        : `the payee answered HTTP ${status} without a settlement response`,
      ...(settlement?.transaction ? { transaction: settlement.transaction } : {}),
    });
    return settlement;
  }

  /**
   * PY22: the platform was the payee (a PER_CALL listing): the settlement recorded in the seller's
   * trail, never as its spend.
   */
  async received(
    call: PaymentCall,
    judged: JudgedPayment,
    headers: Record<string, string>,
  ): Promise<Settlement | undefined> {
    const settlement = settlementOf(headers);
    if (!settlement?.success) {
      await this.unsettled(call, judged, `not settled: ${settlement?.errorReason ?? 'no answer'}`);
      return settlement;
    }
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_SUCCESS',
      payment: withSettledAmount(judged.payment, settlement, judged.decimals),
      ...(settlement.transaction ? { transaction: settlement.transaction } : {}),
      ...(settlement.payer ? { payer: settlement.payer } : {}),
    });
    return settlement;
  }

  /** PY13: no settlement answer came back (the payee failed, or never answered). */
  unsettled(call: PaymentCall, judged: JudgedPayment, text: string): Promise<void> {
    return this.abandoned(call, judged, 'payee', text);
  }

  /** A judged payment that will not be forwarded after all (PY17: its call was refused). */
  async abandoned(
    call: PaymentCall,
    judged: JudgedPayment,
    reason: PaymentRejection,
    text: string,
  ): Promise<void> {
    await this.spend.release(judged.reservation);
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_REJECTED',
      payment: judged.payment,
      reason,
      text,
    });
  }

  /** PY4: a payment refused outside `judge` (one the path cannot carry), recorded first. */
  reject(call: PaymentCall, text: string): Promise<RefusedPayment> {
    return this.refuse(call, 'invalid', text);
  }

  private async refuse(
    call: PaymentCall,
    reason: PaymentRejection,
    text: string,
    payment?: PaymentTerms,
    refusal: Refusal = REFUSALS.paymentRefused,
    extra: Record<string, unknown> = {},
  ): Promise<RefusedPayment> {
    await this.pipeline.recordPayment(call, {
      type: 'X402_PAYMENT_REJECTED',
      ...(payment ? { payment } : {}),
      reason,
      text,
    });
    return {
      kind: 'refused',
      answer: {
        refusal,
        message: refusal.message,
        data: { reasons: [text], ...extra, correlationId: call.correlationId },
      },
    };
  }
}

/** PY9, PY16: a 402 is kept under the payee, or under the one of `offeredBy` that answered it. */
function keyOf(call: PaymentCall): OfferKey {
  return {
    tenantId: call.tenantId,
    payerId: call.payer.id,
    sinkType: call.offeredBy?.sinkType ?? call.payee.type,
    sinkId: call.offeredBy?.sinkIds[0] ?? call.payee.id,
  };
}

/** `upto`-like schemes settle less than authorised: the ledger counts what settled (PY13). */
function withSettledAmount(
  payment: PaymentTerms,
  settlement: Settlement,
  decimals: number,
): PaymentTerms {
  const settled = settlement.amountAtomic;
  if (!settled || settled === payment.amountAtomic || !/^\d+$/.test(settled)) {
    return payment;
  }
  return { ...payment, amountAtomic: settled, amountUsd: atomicToDecimal(settled, decimals) };
}
