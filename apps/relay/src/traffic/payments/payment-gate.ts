import { Injectable } from '@nestjs/common';

import { BudgetReservation } from '../../spend/budget-verdict';
import { SpendMeter } from '../../spend/spend-meter.service';
import { PaymentTerms } from '../pipeline/payment-events';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { isAbove } from './payment-amounts';

/** What a payment is checked for before it goes on, beside the policies (payments.md PY11). */
export interface PaymentGateQuery {
  tenantId: string;
  /** The paying agent (a person on D43's paths). */
  agentId: string;
  /** The subscription the call goes under (D32). */
  subscriptionId?: string;
  /** PY18: the LLM gateway a payment on the LLM path goes through. */
  llmGatewayId?: string;
  payment: PaymentTerms;
}

/** ALLOW goes on; REVIEW waits for a person (D34); REFUSE never reaches the payee. */
export type PaymentGateAnswer =
  | { kind: 'ALLOW'; reservation?: BudgetReservation }
  | { kind: 'REVIEW'; reason: string; reservation?: BudgetReservation }
  | { kind: 'REFUSE'; reason: 'budget'; text: string; budgetId?: string };

/** PY11: the one seam every payment passes before it is forwarded. */
export abstract class PaymentGate {
  abstract check(query: PaymentGateQuery): Promise<PaymentGateAnswer>;
}

/**
 * D60, spend.md SP8: a payment is checked against the TENANT, AGENT and SUBSCRIPTION budgets and
 * reserved (a hard limit refuses it before the payee sees it); then a payment above the tenant's
 * `paymentReviewThreshold` waits for a person, its reservation kept until it settles or is refused.
 */
@Injectable()
export class BudgetedPaymentGate extends PaymentGate {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly spend: SpendMeter,
  ) {
    super();
  }

  async check(query: PaymentGateQuery): Promise<PaymentGateAnswer> {
    const verdict = await this.spend.checkPayment(
      {
        tenantId: query.tenantId,
        agentId: query.agentId,
        ...(query.subscriptionId ? { subscriptionId: query.subscriptionId } : {}),
        ...(query.llmGatewayId ? { llmGatewayId: query.llmGatewayId } : {}),
      },
      query.payment.amountUsd,
    );
    if (verdict.kind === 'EXCEEDED') {
      return {
        kind: 'REFUSE',
        reason: 'budget',
        text: verdict.reason,
        budgetId: verdict.budget.id,
      };
    }
    const reservation = verdict.reservation ? { reservation: verdict.reservation } : {};
    const { paymentReviewThreshold } = await this.directory.settings(query.tenantId);
    if (
      paymentReviewThreshold !== null &&
      isAbove(query.payment.amountUsd, paymentReviewThreshold)
    ) {
      return {
        kind: 'REVIEW',
        reason: `payment of ${query.payment.amountUsd} USD to ${query.payment.payTo} is above the review threshold of ${paymentReviewThreshold} USD`,
        ...reservation,
      };
    }
    return { kind: 'ALLOW', ...reservation };
  }
}
