import { paymentEvent } from '../pipeline/payment-events';
import { termsOf } from './payment-price';
import { Offer } from './x402-messages';

const offer: Offer = {
  scheme: 'exact',
  network: 'eip155:84532',
  asset: '0x036cbd53842c5426634e7929541ec2318f3dcf7e',
  amountAtomic: '1234567',
  payTo: '0x1111111111111111111111111111111111111111',
  maxTimeoutSeconds: 60,
  description: 'one answer',
};

describe('payment terms (payments.md PY7, PY10)', () => {
  it('should price the official USD-pegged asset of a network 1:1, exactly', async () => {
    expect(await termsOf(offer)).toEqual({
      amountUsd: '1.234567',
      amountAtomic: '1234567',
      asset: offer.asset,
      network: 'eip155:84532',
      payTo: offer.payTo,
      scheme: 'exact',
      description: 'one answer',
    });
    expect(await termsOf(offer, '10000')).toMatchObject({
      amountUsd: '0.01',
      amountAtomic: '10000',
    });
  });

  it('should take the decimals the payee states, and refuse to price an asset nobody names', async () => {
    const other = { ...offer, asset: '0x4444444444444444444444444444444444444444' };

    expect(await termsOf({ ...other, extra: { decimals: 2 } })).toMatchObject({
      amountUsd: '12345.67',
    });
    expect(await termsOf(other)).toMatch(/cannot price 1234567 of asset 0x4444/);
  });

  it('should build X402 events with the payer as actor and source and the payee as sink', async () => {
    const payment = await termsOf(offer);
    const parties = {
      tenantId: '00000000-0000-4000-8000-000000000001',
      correlationId: 'c-1',
      protocol: 'JSONRPC' as const,
      payer: { type: 'AGENT' as const, id: 'a-1', name: 'buyer' },
      payee: { type: 'AGENT' as const, id: 'a-2', name: 'seller' },
    };

    const sut = paymentEvent(parties, {
      type: 'X402_PAYMENT_REJECTED',
      payment: payment as Exclude<typeof payment, string>,
      reason: 'policy',
      text: 'no payments to strangers',
      decisionId: 'd-1',
    });

    expect(sut).toMatchObject({
      type: 'X402_PAYMENT_REJECTED',
      tenantId: parties.tenantId,
      correlationId: 'c-1',
      data: {
        actor: { type: 'AGENT', id: 'a-1', label: 'buyer' },
        source: { type: 'AGENT', id: 'a-1' },
        sink: { type: 'AGENT', id: 'a-2', label: 'seller' },
        action: 'BLOCK',
        details: {
          payment: { amountUsd: '1.234567', amountAtomic: '1234567' },
          reason: 'policy',
          reasonText: 'no payments to strangers',
          decisionId: 'd-1',
        },
      },
    });
  });
});
