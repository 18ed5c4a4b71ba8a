import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase, eventually } from '@agp/testing';

import { AlertResponse } from '../src/monitors/alerts/alert-response';
import { AlertsController } from '../src/monitors/alerts/alerts.controller';
import { startAudit } from './support/audit-test-app';
import { EventProbe, MonitorsCaller, raise, volumeFinding } from './monitors-test-kit';

interface Problem {
  detail: string;
}

describe(AlertsController.name, () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let probe: EventProbe;
  let writer: MonitorsCaller;
  let reader: MonitorsCaller;
  let stranger: MonitorsCaller;
  const tenantId = randomUUID();
  const base = '/audit/v1/monitors/alerts';

  beforeAll(async () => {
    db = await createTestDatabase('monitors_alerts');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    probe = await EventProbe.attach(app, [
      'MONITOR_ALERT_TRIGGERED',
      'MONITOR_ALERT_LIFECYCLE_CHANGED',
    ]);
    writer = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:WRITE'], 'Ann Operator');
    reader = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:READ'], 'Rob Reader');
    stranger = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:ADMIN'], 'Other Tenant');
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  async function openAlert(agentId = randomUUID()): Promise<AlertResponse> {
    await raise(app, tenantId, [
      volumeFinding(tenantId, agentId, new Date('2026-01-07T10:00:00Z')),
    ]);
    const page = await reader.call<{ items: AlertResponse[] }>(
      app,
      'GET',
      `${base}?subjectId=${agentId}`,
    );
    const alert = page.body.items[0];
    if (!alert) {
      throw new Error('no alert was opened');
    }
    return alert;
  }

  async function act(
    alertId: string,
    operation: string,
    body: object = {},
  ): Promise<{ status: number; body: AlertResponse & Problem }> {
    return writer.call<AlertResponse & Problem>(
      app,
      'POST',
      `${base}/${alertId}/${operation}`,
      body,
    );
  }

  it('should answer the specification detail with every field when an alert is read', async () => {
    const agentId = randomUUID();
    const opened = await openAlert(agentId);
    const response = await reader.call<AlertResponse>(app, 'GET', `${base}/${opened.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: opened.id,
      findingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      detector: 'AGENT_VOLUME_ANOMALY',
      monitorId: null,
      severity: 'MEDIUM',
      direction: 'SPIKE',
      status: 'OPEN',
      subject: { type: 'AGENT', id: agentId },
      detectedAt: '2026-01-07T10:00:00.000Z',
      summary: `AGENT ${agentId}: requests up`,
      evidence: {
        kind: 'ENTITY_VOLUME',
        subjectType: 'AGENT',
        subjectId: agentId,
        direction: 'SPIKE',
        observedTotal: 400,
        observedPerMinute: 400 / 15,
        baselinePerMinute: 6.5,
        ratio: 400 / 97.5,
        sampleMinutes: 15,
      },
      history: [],
      acknowledgedByLabel: null,
      resolvedByLabel: null,
      suppressedUntil: null,
      suppressedBy: null,
      acknowledgedAt: null,
      resolvedAt: null,
      dismissedReason: null,
      lastDetectedAt: '2026-01-07T10:00:00.000Z',
      occurrences: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('should publish MONITOR_ALERT_TRIGGERED once when a new alert opens', async () => {
    const opened = await openAlert();
    const events = await eventually(() => {
      const found = probe.of('MONITOR_ALERT_TRIGGERED', opened.id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]?.data).toMatchObject({
      alertId: opened.id,
      findingId: opened.findingId,
      detector: 'AGENT_VOLUME_ANOMALY',
      subject: opened.subject,
      evidence: opened.evidence,
    });
  });

  it('should update the open alert and publish nothing new when the finding repeats', async () => {
    const agentId = randomUUID();
    const opened = await openAlert(agentId);
    const later = new Date('2026-01-07T10:01:00Z');
    const outcome = await raise(app, tenantId, [
      { ...volumeFinding(tenantId, agentId, later, 900), severity: 'CRITICAL' },
    ]);
    expect(outcome).toEqual({
      opened: 0,
      updated: 1,
      suppressed: 0,
      rejected: 0,
      muted: 0,
      resolved: 0,
    });
    const page = await reader.call<{ items: AlertResponse[]; total: number }>(
      app,
      'GET',
      `${base}?subjectId=${agentId}`,
    );
    expect(page.body.total).toBe(1);
    expect(page.body.items[0]).toMatchObject({
      id: opened.id,
      severity: 'CRITICAL',
      occurrences: 2,
      detectedAt: opened.detectedAt,
      lastDetectedAt: later.toISOString(),
      evidence: { observedTotal: 900 },
    });
    await eventually(() => expect(probe.of('MONITOR_ALERT_TRIGGERED', opened.id)).toHaveLength(1));
  });

  it('should store and publish nothing when the evidence of a finding breaks its kind', async () => {
    const agentId = randomUUID();
    const broken = volumeFinding(tenantId, agentId, new Date('2026-01-07T10:00:00Z'));
    const evidence = {
      ...broken.evidence,
      direction: 'SIDEWAYS',
      sampleMinutes: 1.5,
    } as unknown as typeof broken.evidence;
    const outcome = await raise(app, tenantId, [{ ...broken, evidence }]);
    expect(outcome).toEqual({
      opened: 0,
      updated: 0,
      suppressed: 0,
      rejected: 1,
      muted: 0,
      resolved: 0,
    });
    const page = await reader.call<{ total: number }>(app, 'GET', `${base}?subjectId=${agentId}`);
    expect(page.body.total).toBe(0);
  });

  it.each([
    ['acknowledge', {}, 'ACKNOWLEDGED', 'ACKNOWLEDGED'],
    ['resolve', {}, 'RESOLVED', 'RESOLVED'],
    ['dismiss', { reason: 'FALSE_POSITIVE' }, 'DISMISSED', 'DISMISSED'],
  ])(
    'should %s an OPEN alert with history and one lifecycle event',
    async (operation, body, status, action) => {
      const opened = await openAlert();
      const response = await act(opened.id, operation, { ...body, note: 'looked at it' });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(status);
      expect(response.body.history).toEqual([
        {
          at: expect.any(String),
          action,
          actorId: writer.subject,
          actorLabel: 'Ann Operator',
          note: 'looked at it',
        },
      ]);
      const events = await eventually(() => {
        const found = probe.of('MONITOR_ALERT_LIFECYCLE_CHANGED', opened.id);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(events[0]?.data).toMatchObject({
        alertId: opened.id,
        lifecycleAction: action,
        fromStatus: 'OPEN',
        toStatus: status,
        note: 'looked at it',
        actor: { id: writer.subject, label: 'Ann Operator' },
      });
    },
  );

  it('should acknowledge when the request has no body at all', async () => {
    const opened = await openAlert();
    const response = await writer.call<AlertResponse>(
      app,
      'POST',
      `${base}/${opened.id}/acknowledge`,
    );
    expect(response.status).toBe(200);
    expect(response.body.history).toEqual([
      expect.objectContaining({ action: 'ACKNOWLEDGED', note: null }),
    ]);
  });

  it('should set the acknowledgement fields when acknowledged and the closing fields when resolved', async () => {
    const opened = await openAlert();
    const acknowledged = await act(opened.id, 'acknowledge');
    expect(acknowledged.body).toMatchObject({
      acknowledgedByLabel: 'Ann Operator',
      acknowledgedAt: expect.any(String),
      resolvedAt: null,
    });
    const resolved = await act(opened.id, 'resolve', { note: 'fixed upstream' });
    expect(resolved.body).toMatchObject({
      status: 'RESOLVED',
      acknowledgedByLabel: 'Ann Operator',
      resolvedByLabel: 'Ann Operator',
      resolvedAt: expect.any(String),
    });
    expect(resolved.body.history.map((h) => h.action)).toEqual(['ACKNOWLEDGED', 'RESOLVED']);
  });

  it('should record the reason and suppress repeats when dismissed', async () => {
    const agentId = randomUUID();
    const opened = await openAlert(agentId);
    const dismissed = await act(opened.id, 'dismiss', { reason: 'EXPECTED' });
    expect(dismissed.body).toMatchObject({
      status: 'DISMISSED',
      dismissedReason: 'EXPECTED',
      suppressedUntil: expect.any(String),
    });
    const hours = (Date.parse(dismissed.body.suppressedUntil ?? '') - Date.now()) / 3_600_000;
    expect(Math.round(hours)).toBe(24);
    const outcome = await raise(app, tenantId, [volumeFinding(tenantId, agentId, new Date())]);
    expect(outcome).toEqual({
      opened: 0,
      updated: 0,
      suppressed: 1,
      rejected: 0,
      muted: 0,
      resolved: 0,
    });
  });

  it.each([
    ['RESOLVED', 'resolve', {}],
    ['DISMISSED', 'dismiss', { reason: 'KNOWN_ISSUE' }],
  ])('should reopen a %s alert and clear its closing fields', async (_status, operation, body) => {
    const opened = await openAlert();
    await act(opened.id, operation, body);
    const reopened = await act(opened.id, 'reopen', { note: 'came back' });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({
      status: 'OPEN',
      resolvedAt: null,
      resolvedByLabel: null,
      dismissedReason: null,
      suppressedUntil: null,
    });
    expect(reopened.body.history.at(-1)).toMatchObject({ action: 'REOPENED', note: 'came back' });
    await eventually(() =>
      expect(probe.of('MONITOR_ALERT_LIFECYCLE_CHANGED', opened.id)).toHaveLength(2),
    );
  });

  it.each([
    ['acknowledge', 'ACKNOWLEDGED', ['acknowledge']],
    ['acknowledge', 'RESOLVED', ['resolve']],
    ['acknowledge', 'DISMISSED', ['dismiss']],
    ['resolve', 'RESOLVED', ['resolve']],
    ['resolve', 'DISMISSED', ['dismiss']],
    ['dismiss', 'RESOLVED', ['resolve']],
    ['dismiss', 'DISMISSED', ['dismiss']],
    ['reopen', 'OPEN', []],
    ['reopen', 'ACKNOWLEDGED', ['acknowledge']],
  ])(
    'should answer 409 naming the status when %s meets a %s alert',
    async (operation, status, before) => {
      const opened = await openAlert();
      for (const step of before) {
        await act(opened.id, step, step === 'dismiss' ? { reason: 'EXPECTED' } : {});
      }
      const historyBefore = (await reader.call<AlertResponse>(app, 'GET', `${base}/${opened.id}`))
        .body.history.length;
      const response = await act(
        opened.id,
        operation,
        operation === 'dismiss' ? { reason: 'EXPECTED' } : {},
      );
      expect(response.status).toBe(409);
      expect(response.body.detail).toBe(`cannot ${operation} an alert whose status is ${status}`);
      const after = await reader.call<AlertResponse>(app, 'GET', `${base}/${opened.id}`);
      expect(after.body.history).toHaveLength(historyBefore);
      expect(after.body.status).toBe(status);
    },
  );

  it('should answer 409 when reopening while another alert is open for the same detector and subject', async () => {
    const agentId = randomUUID();
    const first = await openAlert(agentId);
    await act(first.id, 'resolve');
    await raise(app, tenantId, [
      volumeFinding(tenantId, agentId, new Date('2026-01-08T10:00:00Z')),
    ]);
    const response = await act(first.id, 'reopen');
    expect(response.status).toBe(409);
    expect(response.body.detail).toContain('already open for the same detector and subject');
  });

  it('should answer 400 when dismissing without a valid reason', async () => {
    const opened = await openAlert();
    expect((await act(opened.id, 'dismiss', {})).status).toBe(400);
    expect((await act(opened.id, 'dismiss', { reason: 'BORED' })).status).toBe(400);
    expect((await act(opened.id, 'acknowledge', { note: 'x', extra: 1 })).status).toBe(400);
  });

  it('should answer 404 when the alert belongs to another tenant or does not exist', async () => {
    const opened = await openAlert();
    expect((await stranger.call(app, 'GET', `${base}/${opened.id}`)).status).toBe(404);
    expect((await stranger.call(app, 'POST', `${base}/${opened.id}/acknowledge`, {})).status).toBe(
      404,
    );
    expect((await reader.call(app, 'GET', `${base}/${randomUUID()}`)).status).toBe(404);
    expect((await reader.call(app, 'GET', `${base}/not-a-uuid`)).status).toBe(400);
  });

  it('should answer 403 naming the role when a reader tries a change', async () => {
    const opened = await openAlert();
    const response = await reader.call<Problem>(
      app,
      'POST',
      `${base}/${opened.id}/acknowledge`,
      {},
    );
    expect(response.status).toBe(403);
    expect(response.body.detail).toContain('AUDIT:WRITE');
    const noRole = await MonitorsCaller.create(issuer, tenantId, ['USERS:READ']);
    expect((await noRole.call(app, 'GET', base)).status).toBe(403);
  });

  it('should filter and page the list when filters are given', async () => {
    const agentId = randomUUID();
    const opened = await openAlert(agentId);
    await act(opened.id, 'acknowledge');
    const filtered = await reader.call<{
      items: AlertResponse[];
      total: number;
      page: number;
      pageSize: number;
    }>(
      app,
      'GET',
      `${base}?status=ACKNOWLEDGED&severity=MEDIUM,HIGH&detector=AGENT_VOLUME_ANOMALY&subjectType=AGENT&subjectId=${agentId}&from=2026-01-07T00:00:00Z&to=2026-01-08T00:00:00Z`,
    );
    expect(filtered.body).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect(filtered.body.items.map((a) => a.id)).toEqual([opened.id]);
    const none = await reader.call<{ total: number }>(
      app,
      'GET',
      `${base}?subjectId=${agentId}&status=OPEN`,
    );
    expect(none.body.total).toBe(0);
    const paged = await reader.call<{ items: AlertResponse[] }>(
      app,
      'GET',
      `${base}?pageSize=2&page=1`,
    );
    expect(paged.body.items).toHaveLength(2);
    expect((await reader.call(app, 'GET', `${base}?status=SLEEPING`)).status).toBe(400);
    expect((await stranger.call<{ total: number }>(app, 'GET', base)).body.total).toBe(0);
  });

  it('should record the lifecycle events in the audit trail when a change is made', async () => {
    const opened = await openAlert();
    await act(opened.id, 'acknowledge', { note: 'mine' });
    const recorded = await eventually(async () => {
      const page = await reader.call<{ items: Array<{ eventType: string; summary: string }> }>(
        app,
        'GET',
        '/audit/v1/events?eventType=MONITOR_ALERT_LIFECYCLE_CHANGED',
      );
      const mine = page.body.items.filter((e) =>
        e.summary.includes('acknowledged by Ann Operator'),
      );
      expect(mine.length).toBeGreaterThan(0);
      return mine;
    });
    expect(recorded[0]?.eventType).toBe('MONITOR_ALERT_LIFECYCLE_CHANGED');
  });
});
