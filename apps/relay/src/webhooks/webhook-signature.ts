import { createHmac, randomBytes } from 'node:crypto';

/** D19's header names; the event type header is the specification's own. */
export const WEBHOOK_HEADERS = {
  eventType: 'x-svc-event-type',
  deliveryId: 'x-svc-delivery-id',
  timestamp: 'x-svc-timestamp',
  signature: 'x-svc-signature',
} as const;

/** D19: keyed with the secret's UTF-8 bytes; the body signed as sent, never re-serialised. */
export function webhookSignature(secret: string, timestamp: number, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** D19: newest first, so either secret verifies during a rotation's overlap. */
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
