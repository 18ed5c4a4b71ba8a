import { randomUUID } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import {
  newStandardWebhookSecret,
  standardWebhookHeaders,
  standardWebhookSignature,
} from './standard-webhook-signature';

/** Checked against the independent Standard Webhooks implementation (`standardwebhooks`). */
describe('standardWebhookSignature', () => {
  const body = JSON.stringify({ type: 'HITL_REQUEST_CREATED', data: { hitlRequestId: 'x' } });

  it('should produce headers the standardwebhooks library verifies when signed with its secret', () => {
    const secret = newStandardWebhookSecret();
    const id = randomUUID();
    const now = Math.floor(Date.now() / 1000);

    const headers = standardWebhookHeaders(secret, id, now, body);

    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('should match the library signature byte for byte when given the same id, time and body', () => {
    const secret = newStandardWebhookSecret();
    const id = randomUUID();
    const at = new Date('2026-12-07T06:00:00Z');

    const ours = standardWebhookSignature(secret, id, at.getTime() / 1000, body);

    expect(ours).toBe(new Webhook(secret).sign(id, at, body));
  });

  it('should fail verification when the body or the secret differs', () => {
    const secret = newStandardWebhookSecret();
    const headers = standardWebhookHeaders(
      secret,
      randomUUID(),
      Math.floor(Date.now() / 1000),
      body,
    );

    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newStandardWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('should refuse a secret without the whsec_ prefix', () => {
    expect(() => standardWebhookSignature('plain', 'id', 1, body)).toThrow(/whsec_/);
  });
});
