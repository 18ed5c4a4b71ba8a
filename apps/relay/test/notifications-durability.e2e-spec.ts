import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebhookReceiver, eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

interface Delivery {
  id: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attemptCount: number;
  body: { data: { alertId: string } };
}

/** W21: nothing lost across a restart of the relay, each notification sent once by replicas. */
describe('notifications durability', () => {
  const relay = RelayBed.use('notifydurable', {
    egressAllowPrivate: true,
    // Waits of 0.5, 1.5, 4.5 … s: a delivery is still PENDING across the restart.
    webhooks: { retryBaseMs: 500, maxAttempts: 8, pollMs: 50 },
  });
  let receiver: WebhookReceiver;
  let notifier: TestCaller;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await relay.caller(['NOTIFICATIONS:WRITE']);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  async function webhookTarget(name: string): Promise<string> {
    const created = await notifier.call<{ id: string }>(
      relay.app,
      'POST',
      '/relay/v1/notification-targets',
      { name, kind: 'WEBHOOK', events: ['ALERT_RAISED'], config: { url: receiver.url(name) } },
    );
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function deliveries(targetId: string): Promise<Delivery[]> {
    const listed = await notifier.call<{ items: Delivery[] }>(
      relay.app,
      'GET',
      `/relay/v1/notification-targets/${targetId}/deliveries?pageSize=100`,
    );
    expect(listed.status).toBe(200);
    return listed.body.items;
  }

  /** A new alert, as the audit service publishes it. */
  async function alert(): Promise<string> {
    const alertId = randomUUID();
    await relay.publisher.publish('MONITOR_ALERT_TRIGGERED', relay.tenantId, {
      alertId,
      findingId: randomUUID(),
      detector: 'TENANT_ERROR_SPIKE',
      severity: 'CRITICAL',
      direction: 'SPIKE',
      subject: { type: 'TENANT', id: relay.tenantId },
      detectedAt: new Date().toISOString(),
      evidence: {
        kind: 'TENANT_ACTION_SPIKE',
        action: 'BLOCK',
        direction: 'SPIKE',
        observedTotal: 40,
        observedPerMinute: 8,
        baselinePerMinute: 1,
        ratio: 8,
        sampleMinutes: 5,
        topContributors: [],
        unattributedCount: 0,
      },
    });
    return alertId;
  }

  it('should deliver after a restart both a delivery left pending and an event published while down', async () => {
    const targetId = await webhookTarget('restart');
    receiver.answer('restart', 503);
    const pendingAlert = await alert();
    await eventually(async () => {
      const [delivery] = await deliveries(targetId);
      expect(delivery).toMatchObject({ status: 'PENDING' });
      expect(delivery.attemptCount).toBeGreaterThanOrEqual(1);
    }, 400);

    await relay.app.close();
    const whileDown = await alert();
    receiver.answer('restart', 200);
    relay.app = await relay.replica();

    const delivered = await eventually(async () => {
      const items = await deliveries(targetId);
      expect(items.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
      return items;
    }, 600);
    expect(delivered.map((d) => d.body.data.alertId).sort()).toEqual(
      [pendingAlert, whileDown].sort(),
    );
    const succeeded = receiver.of('restart').slice(-2);
    expect(new Set(succeeded.map((r) => r.headers['webhook-id']))).toEqual(
      new Set(delivered.map((d) => d.id)),
    );
  });

  it('should send each notification once when two replicas dispatch', async () => {
    const second: NestFastifyApplication = await relay.replica();
    try {
      const targetId = await webhookTarget('replicas');
      const alertIds: string[] = [];
      for (let i = 0; i < 10; i++) {
        alertIds.push(await alert());
      }

      await eventually(async () => {
        const items = await deliveries(targetId);
        expect(items.filter((d) => d.status === 'DELIVERED')).toHaveLength(10);
      }, 600);

      const received = receiver.of('replicas');
      expect(received).toHaveLength(10);
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(10);
      expect(
        received
          .map((r) => (r.body as unknown as { data: { alertId: string } }).data.alertId)
          .sort(),
      ).toEqual(alertIds.sort());
    } finally {
      await second.close();
    }
  });
});
