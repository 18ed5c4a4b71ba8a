import { matchPayment } from './payment-match';
import { Offer, PaymentAttempt } from './x402-messages';

const PAY_TO = '0xAbCdEf0000000000000000000000000000000001';
const offer: Offer = {
  scheme: 'exact',
  network: 'eip155:84532',
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  amountAtomic: '10000',
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
};
const seen = [{ x402Version: 2 as const, accepts: [offer] }];

function attempt(overrides: Partial<PaymentAttempt> = {}): PaymentAttempt {
  return {
    x402Version: 2,
    header: 'payment-signature',
    value: 'opaque',
    scheme: 'exact',
    network: 'eip155:84532',
    accepted: { ...offer, payTo: PAY_TO.toLowerCase() },
    signed: { payTo: PAY_TO.toLowerCase(), amountAtomic: '10000' },
    ...overrides,
  };
}

describe('matchPayment (payments.md PY4, PY5)', () => {
  it('should match a payment to the offer it accepts, whatever the case of its addresses', () => {
    expect(matchPayment(attempt(), seen)).toEqual({
      kind: 'matched',
      offer,
      amountAtomic: '10000',
    });
  });

  it('should refuse a payment accepted and signed over to another payee', () => {
    const thief = '0x9999999999999999999999999999999999999999';
    const sut = matchPayment(
      attempt({
        accepted: { ...offer, payTo: thief },
        signed: { payTo: thief, amountAtomic: '10000' },
      }),
      seen,
    );

    expect(sut).toEqual({ kind: 'invalid', text: expect.stringContaining(thief) });
  });

  it('should refuse a signature naming another payee than the requirements it accepts', () => {
    const sut = matchPayment(
      attempt({ signed: { payTo: '0x9999999999999999999999999999999999999999' } }),
      seen,
    );

    expect(sut).toMatchObject({
      kind: 'invalid',
      text: expect.stringMatching(/signed payment is to/),
    });
  });

  it('should refuse more than asked, other terms, unknown payees and requirements never seen', () => {
    expect(
      matchPayment(attempt({ signed: { payTo: PAY_TO, amountAtomic: '10001' } }), seen),
    ).toMatchObject({
      kind: 'invalid',
      text: expect.stringMatching(/more than/),
    });
    expect(
      matchPayment(attempt({ accepted: { ...offer, amountAtomic: '1' } }), seen),
    ).toMatchObject({ kind: 'invalid', text: expect.stringMatching(/did not ask for/) });
    expect(matchPayment(attempt({ signed: {} }), seen)).toMatchObject({
      kind: 'invalid',
      text: expect.stringMatching(/cannot read the payee/),
    });
    expect(matchPayment(attempt(), [])).toMatchObject({
      kind: 'invalid',
      text: expect.stringMatching(/asked for no/),
    });
    expect(matchPayment(attempt({ network: 'eip155:8453' }), seen)).toMatchObject({
      kind: 'invalid',
    });
  });

  it('should match a v1 payment by scheme, network and its signed payee', () => {
    const v1 = attempt({
      x402Version: 1,
      header: 'x-payment',
      signed: { payTo: PAY_TO, amountAtomic: '5000' },
    });
    delete v1.accepted;

    expect(matchPayment(v1, [{ x402Version: 1, accepts: [offer] }])).toEqual({
      kind: 'matched',
      offer,
      amountAtomic: '5000',
    });
    expect(matchPayment(v1, seen)).toMatchObject({ kind: 'invalid' });
  });
});
