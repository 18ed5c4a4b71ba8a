import { TaskState } from '@a2a-js/sdk';

import { WebhookVerificationError } from '../errors';
import { A2A_PUSH_EVENT_TYPE, WEBHOOK_HEADERS } from './webhook-headers';
import { verifyPush } from './verify-push';
import { signWebhook, verifyWebhook } from './verify-webhook';

const NOW = 1_764_000_000_000;
const SECRET = 'whsec-caller';
const DELIVERY_ID = '6f1c2f0e-8a43-4c1b-9a57-3d1f0f3f2a10';

/** A push as the relay delivers it (traffic.md T43): the A2A body, D19's headers. */
function delivery(
  body: unknown,
  options: { contentType?: string; eventType?: string; skew?: number; secret?: string } = {},
) {
  const timestamp = Math.floor(NOW / 1000) + (options.skew ?? 0);
  const rawBody = Buffer.from(JSON.stringify(body));
  return {
    secret: SECRET,
    rawBody,
    now: NOW,
    headers: {
      'content-type': options.contentType ?? 'application/a2a+json',
      [WEBHOOK_HEADERS.eventType]: options.eventType ?? A2A_PUSH_EVENT_TYPE,
      [WEBHOOK_HEADERS.deliveryId]: DELIVERY_ID,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook(options.secret ?? SECRET, timestamp, rawBody),
    },
  };
}

const STATUS_UPDATE_1_0 = {
  statusUpdate: {
    taskId: 'task-7',
    contextId: 'ctx-1',
    status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-12-07T00:00:00.000Z' },
    metadata: {},
  },
};

const TASK_0_3 = {
  kind: 'task',
  id: 'task-3',
  contextId: 'ctx-3',
  status: { state: 'completed' },
  history: [],
};

function refusal(input: Parameters<typeof verifyPush>[0]): string {
  try {
    verifyPush(input);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
  throw new Error('verifyPush accepted it');
}

describe(verifyPush.name, () => {
  it('should read a 1.0 push as the SDK types it, with its delivery id, timestamp and task', () => {
    const sut = verifyPush(delivery(STATUS_UPDATE_1_0));

    expect(sut.protocol).toBe('1.0');
    expect(sut.deliveryId).toBe(DELIVERY_ID);
    expect(sut.timestamp).toBe(NOW / 1000);
    expect(sut.taskId).toBe('task-7');
    expect(sut.body).toEqual(STATUS_UPDATE_1_0);
    const payload = sut.protocol === '1.0' ? sut.event.payload : undefined;
    expect(payload?.$case).toBe('statusUpdate');
    expect(payload?.$case === 'statusUpdate' && payload.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it('should read a 0.3 push (the task itself) by its content type', () => {
    const sut = verifyPush(delivery(TASK_0_3, { contentType: 'application/json; charset=utf-8' }));

    expect(sut).toMatchObject({ protocol: '0.3', taskId: 'task-3', event: TASK_0_3 });
  });

  it('should take the task id of a 0.3 update from taskId', () => {
    const update = { kind: 'status-update', taskId: 'task-4', status: { state: 'working' } };

    expect(verifyPush(delivery(update, { contentType: 'application/json' })).taskId).toBe('task-4');
  });

  it('should check the signature exactly as verifyWebhook does: any matching v1= of several', () => {
    const pushed = delivery(STATUS_UPDATE_1_0);
    const rotated = signWebhook('old-secret', NOW / 1000, pushed.rawBody);
    pushed.headers[WEBHOOK_HEADERS.signature] =
      `${rotated} ${pushed.headers[WEBHOOK_HEADERS.signature]}`;

    expect(verifyPush(pushed).deliveryId).toBe(DELIVERY_ID);
    expect(verifyPush({ ...pushed, secret: 'old-secret' }).deliveryId).toBe(DELIVERY_ID);
  });

  it('should refuse a wrong secret, an altered body and a timestamp outside the window', () => {
    const altered = delivery(STATUS_UPDATE_1_0);
    const body = JSON.stringify({ ...STATUS_UPDATE_1_0, task: { id: 'x' } });

    expect(refusal(delivery(STATUS_UPDATE_1_0, { secret: 'another' }))).toBe('signature mismatch');
    expect(refusal({ ...altered, rawBody: body })).toBe('signature mismatch');
    expect(refusal(delivery(STATUS_UPDATE_1_0, { skew: -301 }))).toBe(
      'timestamp outside the accepted window',
    );
    expect(verifyPush(delivery(STATUS_UPDATE_1_0, { skew: 300 })).taskId).toBe('task-7');
  });

  it('should refuse a D19 event relabelled as a push, and tell a webhook apart', () => {
    const event = { id: DELIVERY_ID, type: 'AGENT_LIFECYCLE', data: {} };

    expect(refusal(delivery(event))).toContain('not an A2A push');
    expect(refusal(delivery(event, { contentType: 'application/json' }))).toContain(
      'not an A2A push',
    );
    expect(refusal(delivery(event, { eventType: 'AGENT_LIFECYCLE' }))).toContain(
      'verify it with verifyWebhook',
    );
  });

  it('should refuse a 1.0 body naming two events, and a 0.3 body under the 1.0 content type', () => {
    expect(refusal(delivery({ ...STATUS_UPDATE_1_0, task: { id: 'x' } }))).toContain(
      'not an A2A push',
    );
    expect(refusal(delivery(TASK_0_3))).toContain('not an A2A push');
  });

  it('should refuse a body that is not a JSON object', () => {
    expect(refusal(delivery([STATUS_UPDATE_1_0]))).toBe('body is not a JSON object');
  });
});

describe(`${verifyWebhook.name} given a push`, () => {
  it('should point to verifyPush', () => {
    expect(() => verifyWebhook(delivery(STATUS_UPDATE_1_0))).toThrow(/verifyPush/);
  });
});
