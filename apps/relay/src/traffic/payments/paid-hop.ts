import { createHash } from 'node:crypto';

import { Hop } from '../pipeline/hop.types';
import { JudgedPayment } from './x402-payments';

/**
 * payments.md PY8: a request carrying a payment is one hop with `input.payment`; its terms (never
 * the payload, PY12) in the hop's details, and the gate's review imposed as at least a hold (T86).
 */
export function paidHop(hop: Hop, judged: JudgedPayment): Hop {
  const imposed =
    hop.imposed?.action === 'BLOCK' || !judged.review
      ? hop.imposed
      : { action: 'HUMAN_REVIEW_REQUIRED' as const, reason: judged.review };
  return {
    ...hop,
    payment: judged.input,
    details: { ...hop.details, payment: judged.payment },
    ...(imposed ? { imposed } : {}),
  };
}

/**
 * PY14, D34: a held payment is released only to a resend of the same message with the same
 * signed payment; the hold keeps a digest of both, never the payment itself.
 */
export function paidResendDigest(digest: string, judged: JudgedPayment | undefined): string {
  if (!judged) {
    return digest;
  }
  return createHash('sha256')
    .update(`${digest}\n${judged.attempt.header}\n${judged.attempt.value}`)
    .digest('hex');
}
