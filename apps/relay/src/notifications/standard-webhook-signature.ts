import { createHmac, randomBytes } from 'node:crypto';

/** The Standard Webhooks headers (standardwebhooks.com, "Signature scheme"). */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';

/** W16, W2: unlike D19's secret, the key is the decoded bytes, as Standard Webhooks reads it. */
export function newStandardWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Keyed with the secret's decoded bytes; the body signed as the bytes sent. */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error('a Standard Webhooks secret starts with whsec_');
  }
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
  return `v1,${mac.toString('base64')}`;
}

export function standardWebhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: standardWebhookSignature(secret, id, timestamp, body),
  };
}
