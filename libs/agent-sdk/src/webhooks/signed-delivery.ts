/** D19's signature check and body parsing, shared by `verifyWebhook` and `verifyPush` (internal). */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { WebhookVerificationError } from '../errors';
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  HeaderBag,
  WEBHOOK_HEADERS,
  headerValues,
} from './webhook-headers';
import type { VerifyWebhookInput } from './verify-webhook';

/** The signature scheme of D19's `X-Svc-Signature` values. */
export const SIGNATURE_SCHEME = 'v1=';

export function bytesOf(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

export function hmac(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
}

export function single(headers: HeaderBag, name: string): string {
  const values = headerValues(headers, name);
  if (values.length !== 1 || values[0] === '') {
    throw new WebhookVerificationError(
      values.length === 0 ? `missing header ${name}` : `header ${name} must appear once`,
    );
  }
  return values[0];
}

/** The `v1=` candidates of the signature header (D19: several, space-separated, during rotation). */
function candidates(headers: HeaderBag): Buffer[] {
  const values = headerValues(headers, WEBHOOK_HEADERS.signature);
  if (values.length === 0) {
    throw new WebhookVerificationError(`missing header ${WEBHOOK_HEADERS.signature}`);
  }
  return values
    .flatMap((value) => value.split(/\s+/))
    .filter((part) => part.startsWith(SIGNATURE_SCHEME))
    .map((part) => part.slice(SIGNATURE_SCHEME.length))
    .filter((hex) => /^[0-9a-f]{64}$/i.test(hex))
    .map((hex) => Buffer.from(hex, 'hex'));
}

export interface VerifiedSignature {
  timestamp: number;
  rawBody: Buffer;
}

/** D19's signature check, shared by `verifyWebhook` and `verifyPush`. */
export function verifySignature(input: VerifyWebhookInput): VerifiedSignature {
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const timestampText = single(input.headers, WEBHOOK_HEADERS.timestamp);
  if (!/^\d{1,12}$/.test(timestampText)) {
    throw new WebhookVerificationError(`malformed ${WEBHOOK_HEADERS.timestamp}`);
  }
  const timestamp = Number(timestampText);
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp outside the accepted window');
  }
  const offered = candidates(input.headers);
  const rawBody = bytesOf(input.rawBody);
  const expected = hmac(input.secret, timestampText, rawBody);
  const matches = offered.reduce(
    (found, candidate) => timingSafeEqual(candidate, expected) || found,
    false,
  );
  if (!matches) {
    throw new WebhookVerificationError('signature mismatch');
  }
  return { timestamp, rawBody };
}

/** The signed body as a JSON object (a D19 event or an A2A push). */
export function parseJsonObject(rawBody: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookVerificationError('body is not a JSON object');
  }
  return body as Record<string, unknown>;
}
