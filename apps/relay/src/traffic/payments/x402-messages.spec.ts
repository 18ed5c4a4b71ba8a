import {
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';

import {
  paymentAttemptOf,
  paymentRequiredOf,
  settlementOf,
  x402AnswerHeaders,
} from './x402-messages';

const PAY_TO = '0x1111111111111111111111111111111111111111';
const ASSET = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const requirement = {
  scheme: 'exact',
  network: 'eip155:84532',
  asset: ASSET,
  amount: '10000',
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: { name: 'USDC', version: '2' },
} as const;
const authorization = {
  from: '0x2222222222222222222222222222222222222222',
  to: PAY_TO,
  value: '10000',
  validAfter: '0',
  validBefore: '9999999999',
  nonce: `0x${'ab'.repeat(32)}`,
};

describe('x402 messages (D60, payments.md PY2–PY5)', () => {
  it('should read a v2 402 from its PAYMENT-REQUIRED header, with the resource and its description', () => {
    const header = encodePaymentRequiredHeader({
      x402Version: 2,
      resource: {
        url: 'https://agent.example/rpc',
        description: 'one answer',
        mimeType: 'application/json',
      },
      accepts: [requirement],
    });

    expect(paymentRequiredOf({ 'payment-required': header }, '{}')).toEqual({
      x402Version: 2,
      resource: 'https://agent.example/rpc',
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          asset: ASSET,
          amountAtomic: '10000',
          payTo: PAY_TO,
          maxTimeoutSeconds: 300,
          description: 'one answer',
          resource: 'https://agent.example/rpc',
          extra: { name: 'USDC', version: '2' },
        },
      ],
    });
  });

  it('should read a v1 402 from its JSON body', () => {
    const body = JSON.stringify({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base-sepolia',
          maxAmountRequired: '2500',
          resource: 'https://agent.example/rpc',
          description: 'a v1 answer',
          mimeType: 'application/json',
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
          asset: ASSET,
        },
      ],
    });

    expect(paymentRequiredOf({}, body)).toMatchObject({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [{ network: 'base-sepolia', amountAtomic: '2500', description: 'a v1 answer' }],
    });
  });

  it('should take a 402 without valid requirements for an ordinary 402', () => {
    expect(paymentRequiredOf({}, '{}')).toBeUndefined();
    expect(paymentRequiredOf({}, 'not json')).toBeUndefined();
    expect(paymentRequiredOf({ 'payment-required': '!!' }, '')).toBeUndefined();
    const notV2 = Buffer.from(JSON.stringify({ x402Version: 2, accepts: [] })).toString('base64');
    expect(paymentRequiredOf({ 'payment-required': notV2 }, '')).toBeUndefined();
  });

  it('should read the accepted requirements and the signed payee and amount of a v2 payment', () => {
    const value = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: requirement,
      payload: { signature: '0xsig', authorization },
    });

    const sut = paymentAttemptOf({ 'payment-signature': value });

    expect(sut).toMatchObject({
      x402Version: 2,
      header: 'payment-signature',
      value,
      scheme: 'exact',
      network: 'eip155:84532',
      accepted: { payTo: PAY_TO, amountAtomic: '10000', asset: ASSET },
      signed: { payTo: PAY_TO, amountAtomic: '10000' },
    });
  });

  it('should read a v1 X-PAYMENT and a Permit2 witness payee', () => {
    const value = Buffer.from(
      JSON.stringify({
        x402Version: 1,
        scheme: 'exact',
        network: 'base-sepolia',
        payload: {
          signature: '0xsig',
          permit2Authorization: {
            permitted: { token: ASSET, amount: '2500' },
            witness: { to: PAY_TO },
          },
        },
      }),
    ).toString('base64');

    expect(paymentAttemptOf({ 'x-payment': value })).toMatchObject({
      x402Version: 1,
      header: 'x-payment',
      signed: { payTo: PAY_TO, amountAtomic: '2500' },
    });
  });

  it('should refuse what is not one payment payload', () => {
    expect(paymentAttemptOf({ 'payment-signature': 'a', 'x-payment': 'b' })).toMatch(/not both/);
    expect(paymentAttemptOf({ 'payment-signature': '***' })).toMatch(/not a base64/);
    const v1InV2 = Buffer.from(
      JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }),
    ).toString('base64');
    expect(paymentAttemptOf({ 'payment-signature': v1InV2 })).toMatch(/not an x402 version 2/);
  });

  it('should read a settlement from either header and carry only x402 headers back', () => {
    const settled = encodePaymentResponseHeader({
      success: true,
      transaction: '0xabc',
      network: 'eip155:84532',
      payer: authorization.from,
    });

    expect(settlementOf({ 'payment-response': settled })).toEqual({
      success: true,
      transaction: '0xabc',
      network: 'eip155:84532',
      payer: authorization.from,
    });
    expect(settlementOf({ 'x-payment-response': settled })).toMatchObject({ success: true });
    expect(settlementOf({ 'payment-response': '%%' })).toMatchObject({ success: false });
    expect(settlementOf({})).toBeUndefined();
    expect(
      x402AnswerHeaders({
        'payment-response': settled,
        'set-cookie': 'x',
        'payment-required': 'r',
      }),
    ).toEqual({ 'payment-response': settled, 'payment-required': 'r' });
  });
});
