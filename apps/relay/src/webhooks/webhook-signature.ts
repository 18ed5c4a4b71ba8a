import { createHmac, randomBytes } from 'node:crypto';

/** D19's header names; the event type header is the specification's own. */
export const WEBHOOK_HEADERS = {
  eventType: 'x-svc-event-type',
  deliveryId: 'x-svc-delivery-id',
  timestamp: 'x-svc-timestamp',
  signature: 'x-svc-signature',
} as const;

/**
 * D19: `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, keyed with the secret's UTF-8 bytes as
 * the agent holds it (SVC_WEBHOOK_SECRET). The body is signed as the bytes sent, never re-serialised.
 */
export function webhookSignature(secret: string, timestamp: number, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/**
 * The `X-Svc-Signature` value: one `v1=` per secret, space-separated, the newest first, so that
 * during a rotation's overlap a receiver holding either secret verifies it (D19).
 */
export function webhookSignatureHeader(
  secrets: readonly string[],
  timestamp: number,
  body: Buffer | string,
): string {
  if (secrets.length === 0) {
    throw new Error('a webhook is signed with at least one secret');
  }
  return secrets.map((secret) => `v1=${webhookSignature(secret, timestamp, body)}`).join(' ');
}

/** A new signing secret: 32 random bytes, `whsec_` and base64url, used as its UTF-8 text. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
