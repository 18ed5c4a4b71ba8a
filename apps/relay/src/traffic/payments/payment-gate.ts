import { Injectable } from '@nestjs/common';

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
  payment: PaymentTerms;
}

/** ALLOW goes on; REVIEW waits for a person (D34); REFUSE never reaches the payee. */
export type PaymentGateAnswer =
  | { kind: 'ALLOW' }
  | { kind: 'REVIEW'; reason: string }
  | { kind: 'REFUSE'; reason: 'budget'; text: string; budgetId?: string };

/** PY11: the one seam every payment passes before it is forwarded. */
export abstract class PaymentGate {
  abstract check(query: PaymentGateQuery): Promise<PaymentGateAnswer>;
}

/** D60: payments above the tenant's `paymentReviewThreshold` wait for a person. */
@Injectable()
export class ReviewThresholdGate extends PaymentGate {
  constructor(private readonly directory: TrafficDirectory) {
    super();
  }

  async check(query: PaymentGateQuery): Promise<PaymentGateAnswer> {
    const { paymentReviewThreshold } = await this.directory.settings(query.tenantId);
    if (
      paymentReviewThreshold !== null &&
      isAbove(query.payment.amountUsd, paymentReviewThreshold)
    ) {
      return {
        kind: 'REVIEW',
        reason: `payment of ${query.payment.amountUsd} USD to ${query.payment.payTo} is above the review threshold of ${paymentReviewThreshold} USD`,
      };
    }
    return { kind: 'ALLOW' };
  }
}
