import { atomicAtMost } from './payment-amounts';
import { Offer, PaymentAttempt } from './x402-messages';
import { StoredOffers } from './x402-offers.repository';

/** A retry's payment against what the payee asked for: the offer it pays, or why it pays none. */
export type Matched =
  { kind: 'matched'; offer: Offer; amountAtomic: string } | { kind: 'invalid'; text: string };

/** EVM addresses and assets are hex, whatever their case (EIP-55 only adds a checksum). */
function same(a: string, b: string): boolean {
  return /^0x/i.test(a) && /^0x/i.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function sameTerms(a: Offer, b: Offer): boolean {
  return (
    a.scheme === b.scheme &&
    a.network === b.network &&
    same(a.asset, b.asset) &&
    same(a.payTo, b.payTo) &&
    a.amountAtomic === b.amountAtomic
  );
}

/**
 * payments.md PY4, PY5: a payment goes on only for requirements the payee gave this payer (v2:
 * the `accepted` it echoes, v1: its scheme and network), to the payee those requirements named,
 * and the signed authorization names that payee and no more than the amount asked.
 */
export function matchPayment(attempt: PaymentAttempt, seen: StoredOffers[]): Matched {
  const offers = seen
    .filter((s) => s.x402Version === attempt.x402Version)
    .flatMap((s) => s.accepts);
  const candidates = offers.filter(
    (o) => o.scheme === attempt.scheme && o.network === attempt.network,
  );
  if (candidates.length === 0) {
    return {
      kind: 'invalid',
      text: `the payee asked for no ${attempt.scheme} payment on ${attempt.network} (x402 version ${attempt.x402Version}) that the relay saw`,
    };
  }
  const signedPayee = attempt.signed.payTo;
  if (!signedPayee) {
    return {
      kind: 'invalid',
      text: `the relay cannot read the payee of a ${attempt.scheme} payment on ${attempt.network}`,
    };
  }
  let offer: Offer | undefined;
  if (attempt.accepted) {
    const accepted = attempt.accepted;
    offer = candidates.find((o) => sameTerms(o, accepted));
    if (!offer) {
      const payees = [...new Set(candidates.map((o) => o.payTo))].join(', ');
      return {
        kind: 'invalid',
        text: same(accepted.payTo, candidates[0].payTo)
          ? 'the payment accepts requirements the payee did not ask for'
          : `the payment is to ${accepted.payTo}, the payee asked to be paid to ${payees}`,
      };
    }
  } else {
    offer = candidates.find((o) => same(o.payTo, signedPayee));
  }
  if (!offer || !same(offer.payTo, signedPayee)) {
    const payees = [...new Set(candidates.map((o) => o.payTo))].join(', ');
    return {
      kind: 'invalid',
      text: `the signed payment is to ${signedPayee}, the payee asked to be paid to ${payees}`,
    };
  }
  const signedAmount = attempt.signed.amountAtomic ?? offer.amountAtomic;
  if (!/^\d+$/.test(signedAmount) || !atomicAtMost(signedAmount, offer.amountAtomic)) {
    return {
      kind: 'invalid',
      text: `the signed payment of ${signedAmount} is more than the ${offer.amountAtomic} asked`,
    };
  }
  return { kind: 'matched', offer, amountAtomic: signedAmount };
}
