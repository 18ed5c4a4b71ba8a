import { createHmac, timingSafeEqual } from 'node:crypto';

import { WebhookVerificationError } from '../errors';
import {
  A2A_PUSH_EVENT_TYPE,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  HeaderBag,
  WEBHOOK_HEADERS,
  headerValues,
} from './webhook-headers';

/** D19: the body of a delivery. */
export interface WebhookEvent {
  id: string;
  type: string;
  occurredAt?: string;
  tenantId?: string;
  agentId?: string;
  data?: unknown;
}

export interface VerifiedWebhook {
  eventType: string;
  deliveryId: string;
  /** Unix seconds, as signed. */
  timestamp: number;
  event: WebhookEvent;
}

export interface VerifyWebhookInput {
  secret: string;
  headers: HeaderBag;
  /** The request body exactly as received: re-serialised JSON would not match (Webhooks 2). */
  rawBody: Uint8Array | string;
  toleranceSeconds?: number;
  /** Epoch milliseconds; the current time by default. */
  now?: number;
}

const SIGNATURE_SCHEME = 'v1=';

function bytesOf(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

function hmac(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
}

/** `v1=<hex>` over `"<timestamp>.<raw body>"` (D19); what the platform sends, for tests and tools. */
export function signWebhook(
  secret: string,
  timestamp: number | string,
  rawBody: Uint8Array | string,
): string {
  return `${SIGNATURE_SCHEME}${hmac(secret, String(timestamp), bytesOf(rawBody)).toString('hex')}`;
}

function single(headers: HeaderBag, name: string): string {
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

function parseEvent(rawBody: Buffer): WebhookEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookVerificationError('body is not a JSON object');
  }
  const event = body as Partial<WebhookEvent>;
  if (typeof event.id !== 'string' || typeof event.type !== 'string') {
    throw new WebhookVerificationError('body lacks its id or type');
  }
  return event as WebhookEvent;
}

/** What a verified signature vouches for: the signed timestamp and the raw body it covered. */
export interface VerifiedSignature {
  /** Unix seconds, as signed. */
  timestamp: number;
  rawBody: Buffer;
}

/**
 * D19's signature check, shared by {@link verifyWebhook} and `verifyPush`: the HMAC-SHA256 of
 * `"<timestamp>.<raw body>"` compared in constant time with every `v1=` value, the timestamp a
 * Unix-seconds integer within `toleranceSeconds` of now. Throws {@link WebhookVerificationError}.
 */
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
  // Every candidate is compared (no early exit), each in constant time.
  const matches = offered.reduce(
    (found, candidate) => timingSafeEqual(candidate, expected) || found,
    false,
  );
  if (!matches) {
    throw new WebhookVerificationError('signature mismatch');
  }
  return { timestamp, rawBody };
}

/** A header that must appear exactly once (D19's event type and delivery id). */
export function singleHeader(headers: HeaderBag, name: string): string {
  return single(headers, name);
}

/**
 * Verifies a delivery as the specification (Webhooks 2–3) and D19 say (see
 * {@link verifySignature}). The unsigned headers must agree with the signed body (event type with
 * `type`, delivery id with `id`), so no header can be altered either. An A2A push the relay
 * delivers (`A2A_PUSH_NOTIFICATION`) has no such envelope: read it with `verifyPush`.
 * Throws {@link WebhookVerificationError}.
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhook {
  const { timestamp, rawBody } = verifySignature(input);
  const eventType = single(input.headers, WEBHOOK_HEADERS.eventType);
  const deliveryId = single(input.headers, WEBHOOK_HEADERS.deliveryId);
  if (eventType === A2A_PUSH_EVENT_TYPE) {
    throw new WebhookVerificationError(
      `an ${A2A_PUSH_EVENT_TYPE} delivery carries the A2A push itself, not an event: verify it with verifyPush`,
    );
  }
  const event = parseEvent(rawBody);
  if (event.type !== eventType || event.id !== deliveryId) {
    throw new WebhookVerificationError('headers disagree with the signed body');
  }
  return { eventType, deliveryId, timestamp, event };
}
