import { StreamResponse } from '@a2a-js/sdk';

import { WebhookVerificationError } from '../errors';
import { A2A_PUSH_EVENT_TYPE, WEBHOOK_HEADERS, headerValues } from './webhook-headers';
import { parseJsonObject, single, verifySignature } from './signed-delivery';
import { VerifyWebhookInput } from './verify-webhook';

export const LEGACY_PUSH_KINDS = ['task', 'message', 'status-update', 'artifact-update'] as const;
export type LegacyPushKind = (typeof LEGACY_PUSH_KINDS)[number];

export interface LegacyPushEvent {
  kind: LegacyPushKind;
  id?: string;
  taskId?: string;
  contextId?: string;
  status?: { state: string; message?: unknown; timestamp?: string };
  [field: string]: unknown;
}

export type A2aPush =
  | {
      protocol: '1.0';
      event: StreamResponse;
    }
  | { protocol: '0.3'; event: LegacyPushEvent };

export type VerifiedPush = A2aPush & {
  deliveryId: string;
  timestamp: number;
  taskId?: string;
  body: Record<string, unknown>;
};

const ONE_OF_1_0 = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asStreamResponse(body: Record<string, unknown>): A2aPush | undefined {
  const present = ONE_OF_1_0.filter((key) => body[key] !== undefined);
  if (present.length !== 1) {
    return undefined;
  }
  const value = body[present[0]];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  return { protocol: '1.0', event: StreamResponse.fromJSON(body) };
}

function asLegacy(body: Record<string, unknown>): A2aPush | undefined {
  return LEGACY_PUSH_KINDS.includes(body.kind as LegacyPushKind)
    ? { protocol: '0.3', event: body as LegacyPushEvent }
    : undefined;
}

function taskIdOf(push: A2aPush): string | undefined {
  if (push.protocol === '0.3') {
    const event = push.event;
    return stringOf(event.kind === 'task' ? event.id : event.taskId);
  }
  const payload = push.event.payload;
  if (!payload) {
    return undefined;
  }
  return stringOf(payload.$case === 'task' ? payload.value.id : payload.value.taskId);
}

/**
 * Verifies and reads an A2A push the relay delivers to the calling agent (traffic.md, "A2A pushes
 * go through the relay" and "Delivery is a webhook delivery"): signed exactly as D19 signs webhooks
 * (the same check as {@link verifyWebhook}: HMAC-SHA256 of `"<timestamp>.<raw body>"` with the
 * agent's webhook secret, constant time, several `v1=` values, the same timestamp window),
 * `X-Svc-Event-Type` `A2A_PUSH_NOTIFICATION`, and the body the A2A push itself, not D19's envelope.
 */
export function verifyPush(input: VerifyWebhookInput): VerifiedPush {
  const { timestamp, rawBody } = verifySignature(input);
  const eventType = single(input.headers, WEBHOOK_HEADERS.eventType);
  if (eventType !== A2A_PUSH_EVENT_TYPE) {
    throw new WebhookVerificationError(
      `not an A2A push but a ${eventType} delivery: verify it with verifyWebhook`,
    );
  }
  const deliveryId = single(input.headers, WEBHOOK_HEADERS.deliveryId);
  const body = parseJsonObject(rawBody);
  const contentType = (headerValues(input.headers, 'content-type')[0] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const push =
    contentType === 'application/a2a+json'
      ? asStreamResponse(body)
      : contentType === 'application/json'
        ? asLegacy(body)
        : (asStreamResponse(body) ?? asLegacy(body));
  if (!push) {
    throw new WebhookVerificationError(
      'body is not an A2A push (1.0: one of task, message, statusUpdate, artifactUpdate; 0.3: kind)',
    );
  }
  const taskId = taskIdOf(push);
  return { ...push, deliveryId, timestamp, body, ...(taskId ? { taskId } : {}) };
}
