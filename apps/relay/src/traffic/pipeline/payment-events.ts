import { AuditEventType, AuditableEventData, EventEnvelope, Protocol } from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { EndpointRef, PaymentTerms } from '../../decisions/decision.types';
import { CallTrace } from '../tracing/call-trace';

export type PaymentEvent = EventEnvelope<AuditEventType, AuditableEventData>;

export type { PaymentTerms };

/** PY10: why a payment did not go on, or did not settle. */
export type PaymentRejection = 'policy' | 'budget' | 'reviewer' | 'payee' | 'invalid';

/** Who pays whom on which call: the paying agent (or person) and the payee target. */
export interface PaymentParties {
  tenantId: string;
  correlationId: string;
  protocol: Protocol;
  payer: EndpointRef;
  payee: EndpointRef;
  trace?: CallTrace;
}

export type PaymentRecord =
  | {
      type: 'X402_PAYMENT_REQUIRED';
      /** The payee's first priced option; absent when none could be priced (PY7). */
      payment?: PaymentTerms;
      accepts: PaymentTerms[];
      error?: string;
    }
  | { type: 'X402_PAYMENT_ATTEMPT'; payment: PaymentTerms; decisionId?: string }
  | { type: 'X402_PAYMENT_SUCCESS'; payment: PaymentTerms; transaction?: string; payer?: string }
  | {
      type: 'X402_PAYMENT_REJECTED';
      payment?: PaymentTerms;
      reason: PaymentRejection;
      text: string;
      transaction?: string;
      decisionId?: string;
    };

const ACTION = {
  X402_PAYMENT_REQUIRED: undefined,
  X402_PAYMENT_ATTEMPT: 'LOG',
  X402_PAYMENT_SUCCESS: 'LOG',
  X402_PAYMENT_REJECTED: 'BLOCK',
} as const;

function party(endpoint: EndpointRef): NonNullable<AuditableEventData['actor']> {
  return {
    type: endpoint.type,
    id: endpoint.id,
    ...(endpoint.name ? { label: endpoint.name } : {}),
  };
}

function worded(record: PaymentRecord): string {
  const amount = record.payment
    ? `${record.payment.amountUsd} USD to ${record.payment.payTo}`
    : 'a payment';
  switch (record.type) {
    case 'X402_PAYMENT_REQUIRED':
      return `payment required: ${amount}`;
    case 'X402_PAYMENT_ATTEMPT':
      return `payment forwarded: ${amount}`;
    case 'X402_PAYMENT_SUCCESS':
      return `payment settled: ${amount}${record.transaction ? ` (${record.transaction})` : ''}`;
    case 'X402_PAYMENT_REJECTED':
      return `payment rejected (${record.reason}): ${amount}: ${record.text}`;
  }
}

/** D48: one X402_* event; actor and source the payer, sink the payee (PY10). */
export function paymentEvent(parties: PaymentParties, record: PaymentRecord): PaymentEvent {
  const action = ACTION[record.type];
  const ids = parties.trace?.ids;
  const details: Record<string, unknown> = {
    ...(record.payment ? { payment: record.payment } : {}),
    ...(record.type === 'X402_PAYMENT_REQUIRED'
      ? { accepts: record.accepts, ...(record.error ? { error: record.error } : {}) }
      : {}),
    ...('transaction' in record && record.transaction ? { transaction: record.transaction } : {}),
    ...(record.type === 'X402_PAYMENT_SUCCESS' && record.payer ? { payer: record.payer } : {}),
    ...(record.type === 'X402_PAYMENT_REJECTED'
      ? { reason: record.reason, reasonText: record.text }
      : {}),
    ...('decisionId' in record && record.decisionId ? { decisionId: record.decisionId } : {}),
  };
  return buildEvent(
    record.type,
    { tenantId: parties.tenantId, correlationId: parties.correlationId },
    {
      actor: party(parties.payer),
      source: party(parties.payer),
      sink: party(parties.payee),
      protocol: parties.protocol,
      ...(action ? { action } : {}),
      summary: `${parties.protocol} ${worded(record)}`,
      details,
      ...(record.type === 'X402_PAYMENT_REJECTED' ? { decision: { reasons: [record.text] } } : {}),
      ...(ids ? { traceId: ids.traceId, spanId: ids.spanId } : {}),
    },
  );
}
