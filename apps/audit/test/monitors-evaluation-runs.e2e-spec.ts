import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EVENT_TRANSPORT, EventTransport } from '@agp/messaging';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  eventually,
  uniqueNatsPrefix,
} from '@agp/testing';

import { AlertResponse } from '../src/monitors/alerts/alert-response';
import { MonitorsCaller } from './monitors-test-kit';
import { auditEnvelope, startAudit } from './support/audit-test-app';

/** M76: the relay's failed pack run raises EVALUATION_RUN_FAILED as its event is stored. */
describe('EVALUATION_RUN_FAILED', () => {
  let db: TestDatabase;
  let prefix: string;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let transport: EventTransport;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_evaluation_runs');
    prefix = uniqueNatsPrefix('audeval');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer, prefix });
    transport = app.get<EventTransport>(EVENT_TRANSPORT);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  function runFailed(tenantId: string, runId: string, change = 'EVALUATION_RUN_FAILED') {
    return auditEnvelope(tenantId, 'POLICY_LIFECYCLE', {
      summary: 'evaluation pack nightly: 1 of 3 evaluations failed',
      change,
      details: {
        packId: randomUUID(),
        packName: 'nightly',
        runId,
        status: 'COMPLETED',
        triggerSource: 'SCHEDULE',
        evaluationCount: 3,
        failed: 1,
      },
    } as never);
  }

  async function alertsOf(caller: MonitorsCaller): Promise<AlertResponse[]> {
    const page = await caller.call<{ items: AlertResponse[] }>(
      app,
      'GET',
      '/audit/v1/monitors/alerts?detector=EVALUATION_RUN_FAILED',
    );
    expect(page.status).toBe(200);
    return page.body.items;
  }

  it('should raise one MEDIUM tenant alert per failed run, also when the event comes twice', async () => {
    const tenantId = randomUUID();
    const reader = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:READ']);
    const runId = randomUUID();
    const event = runFailed(tenantId, runId);
    await transport.publish(event);
    await transport.publish({ ...event, id: randomUUID() });
    await transport.publish(runFailed(tenantId, randomUUID(), 'BINDING_CREATED'));

    const [alert] = await eventually(async () => {
      const alerts = await alertsOf(reader);
      expect(alerts).toHaveLength(1);
      return alerts;
    });
    expect(alert).toMatchObject({
      severity: 'MEDIUM',
      subject: expect.objectContaining({ type: 'TENANT', id: tenantId }),
      evidence: expect.objectContaining({ kind: 'EVALUATION_RUN', runId, failed: 1 }),
    });
    const other = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:READ']);
    expect(await alertsOf(other)).toEqual([]);
  });

  it('should raise nothing when the tenant turned the detector off', async () => {
    const tenantId = randomUUID();
    const admin = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:WRITE', 'AUDIT:READ']);
    const off = await admin.call(app, 'PUT', '/audit/v1/monitors/config', {
      detectors: [{ detector: 'EVALUATION_RUN_FAILED', enabled: false }],
    });
    expect(off.status).toBe(200);
    await transport.publish(runFailed(tenantId, randomUUID()));
    const marker = runFailed(tenantId, randomUUID(), 'BINDING_CREATED');
    await transport.publish(marker);
    await eventually(async () => {
      const events = await admin.call<{ items: unknown[] }>(
        app,
        'GET',
        `/audit/v1/events?correlationId=${marker.correlationId}`,
      );
      expect(events.body.items).toHaveLength(1);
    });
    expect(await alertsOf(admin)).toEqual([]);
  });
});
