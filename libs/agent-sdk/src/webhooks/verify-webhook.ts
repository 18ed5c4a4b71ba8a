import { WebhookVerificationError } from '../errors';
import {
  SIGNATURE_SCHEME,
  bytesOf,
  hmac,
  parseJsonObject,
  single,
  verifySignature,
} from './signed-delivery';
import { A2A_PUSH_EVENT_TYPE, HeaderBag, WEBHOOK_HEADERS } from './webhook-headers';

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
  timestamp: number;
  event: WebhookEvent;
}

export interface VerifyWebhookInput {
  secret: string;
  headers: HeaderBag;
  /** The request body exactly as received: re-serialised JSON would not match (Webhooks 2). */
  rawBody: Uint8Array | string;
  toleranceSeconds?: number;
  now?: number;
}

/** `v1=<hex>` over `"<timestamp>.<raw body>"` (D19); what the platform sends, for tests and tools. */
export function signWebhook(
  secret: string,
  timestamp: number | string,
  rawBody: Uint8Array | string,
): string {
  return `${SIGNATURE_SCHEME}${hmac(secret, String(timestamp), bytesOf(rawBody)).toString('hex')}`;
}

function parseEvent(rawBody: Buffer): WebhookEvent {
  const body = parseJsonObject(rawBody);
  const event = body as Partial<WebhookEvent>;
  if (typeof event.id !== 'string' || typeof event.type !== 'string') {
    throw new WebhookVerificationError('body lacks its id or type');
  }
  return event as WebhookEvent;
}

/**
 * The unsigned headers must agree with the signed body (event type with `type`, delivery id with
 * `id`), so no header can be altered either (D19).
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
