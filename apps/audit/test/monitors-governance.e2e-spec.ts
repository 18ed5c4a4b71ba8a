import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GovernanceRecordSnapshot } from '@agp/contracts';
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
import { GovernanceProjectionRepository } from '../src/monitors/governance/governance-projection.repository';
import { EventProbe, MonitorsCaller, databaseOf, ticksOf } from './monitors-test-kit';
import { auditEnvelope, startAudit } from './support/audit-test-app';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * Issue 17: the five governance detectors raise from the relay's GOVERNANCE_LIFECYCLE snapshots
 * (over JetStream, as the relay publishes them) and resolve by themselves once the gap closes;
 * a mute and a recurring downtime cross a tick.
 */
describe('governance detectors', () => {
  let db: TestDatabase;
  let prefix: string;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let probe: EventProbe;
  let transport: EventTransport;
  /**
   * Each tick takes a minute of its own (the lease is per minute), a month ahead of the scheduler's
   * own ticks, so that they never claim the same minute.
   */
  let clock = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + 30 * DAY_MS;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_governance');
    prefix = uniqueNatsPrefix('audgov');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer, prefix });
    transport = app.get<EventTransport>(EVENT_TRANSPORT);
    probe = await EventProbe.attach(app, [
      'MONITOR_ALERT_TRIGGERED',
      'MONITOR_ALERT_LIFECYCLE_CHANGED',
      'MONITOR_MUTED',
      'MONITOR_UNMUTED',
      'MONITOR_DOWNTIME_SCHEDULED',
      'MONITOR_DOWNTIME_CANCELLED',
    ]);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  function nextTick(): Date {
    clock += MINUTE_MS;
    return new Date(clock);
  }

  function snapshot(overrides: Partial<GovernanceRecordSnapshot> = {}): GovernanceRecordSnapshot {
    return {
      recordId: randomUUID(),
      revision: 1,
      subjectType: 'AGENT',
      subjectId: randomUUID(),
      subjectName: 'billing agent',
      riskTier: 'HIGH',
      tierSeverity: 'HIGH',
      ownerStatus: 'ACTIVE',
      reviewDueAt: new Date(clock + 30 * DAY_MS).toISOString(),
      attestationStaleAt: new Date(clock + 30 * DAY_MS).toISOString(),
      openIncidents: [],
      isDeleted: false,
      ...overrides,
    };
  }

  /** Publishes on JetStream and waits until the projection holds that revision. */
  async function publish(tenantId: string, record: GovernanceRecordSnapshot): Promise<void> {
    await transport.publish(
      auditEnvelope(tenantId, 'GOVERNANCE_LIFECYCLE', {
        summary: 'governance change',
        change: 'RECORD_UPDATED',
        record,
      } as never),
    );
    await eventually(async () => {
      const rows = await databaseOf(app).inTenant(tenantId, (tx) =>
        tx.query<Array<{ revision: number }>>(
          `SELECT revision FROM audit.monitor_governance WHERE tenant_id = $1 AND record_id = $2`,
          [tenantId, record.recordId],
        ),
      );
      expect(rows[0]?.revision).toBe(record.revision);
    });
  }

  async function alertsOf(tenantId: string, detector: string): Promise<AlertResponse[]> {
    const reader = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:READ']);
    const page = await reader.call<{ items: AlertResponse[] }>(
      app,
      'GET',
      `/audit/v1/monitors/alerts?detector=${detector}`,
    );
    return page.body.items;
  }

  it.each([
    [
      'GOVERNANCE_REVIEW_DUE',
      'REVIEW_DUE',
      () => ({ reviewDueAt: new Date(clock - 3 * DAY_MS).toISOString() }),
      () => ({ reviewDueAt: new Date(clock + 90 * DAY_MS).toISOString() }),
    ],
    [
      'GOVERNANCE_ORPHANED_OWNER',
      'ORPHANED_OWNER',
      () => ({ ownerUserId: randomUUID(), ownerStatus: 'DISABLED' as const }),
      () => ({ ownerStatus: 'ACTIVE' as const }),
    ],
    [
      'GOVERNANCE_STALE_ATTESTATION',
      'STALE_ATTESTATION',
      () => ({
        attestedAt: new Date(clock - 100 * DAY_MS).toISOString(),
        attestationStaleAt: new Date(clock - 10 * DAY_MS).toISOString(),
      }),
      () => ({
        attestedAt: new Date(clock).toISOString(),
        attestationStaleAt: new Date(clock + 90 * DAY_MS).toISOString(),
      }),
    ],
    [
      'GOVERNANCE_INCIDENT_REPORT_DUE',
      'INCIDENT_REPORT_DUE',
      () => ({
        openIncidents: [
          {
            incidentId: randomUUID(),
            title: 'leak',
            reportDueAt: new Date(clock - 2 * DAY_MS).toISOString(),
          },
        ],
      }),
      () => ({ openIncidents: [] }),
    ],
  ])(
    'should raise %s with its governance gap and resolve it by itself when the gap closes',
    async (detector, gap, open, close) => {
      const tenantId = randomUUID();
      const record = snapshot(open());
      await publish(tenantId, record);
      await ticksOf(app).tick(nextTick());
      const [alert] = await alertsOf(tenantId, detector);
      expect(alert).toMatchObject({
        status: 'OPEN',
        severity: 'HIGH',
        subject: { type: 'AGENT', id: record.subjectId },
        evidence: {
          kind: 'GOVERNANCE_GAP',
          subjectType: 'AGENT',
          subjectId: record.subjectId,
          subjectName: 'billing agent',
          gap,
          riskTier: 'HIGH',
        },
      });
      // The announcement travels outbox → NATS → probe: it follows the tick, it is not part of it.
      await eventually(() => expect(probe.of('MONITOR_ALERT_TRIGGERED', alert.id)).toHaveLength(1));
      // A repeat tick keeps one alert (D14).
      await ticksOf(app).tick(nextTick());
      expect(await alertsOf(tenantId, detector)).toHaveLength(1);

      await publish(tenantId, { ...record, ...close(), revision: 2 });
      // An older snapshot arriving late changes nothing.
      await transport.publish(auditEnvelope(tenantId, 'GOVERNANCE_LIFECYCLE', { record } as never));
      await ticksOf(app).tick(nextTick());
      const [resolved] = await alertsOf(tenantId, detector);
      expect(resolved).toMatchObject({
        id: alert.id,
        status: 'RESOLVED',
        resolvedByLabel: 'audit monitors',
      });
      expect(resolved.history).toEqual([
        expect.objectContaining({ action: 'RESOLVED', actorLabel: 'audit monitors' }),
      ]);
      await eventually(() =>
        expect(probe.of('MONITOR_ALERT_LIFECYCLE_CHANGED', alert.id)).toEqual([
          expect.objectContaining({
            data: expect.objectContaining({ detector, toStatus: 'RESOLVED' }),
          }),
        ]),
      );
    },
  );

  it('should count the days overdue of a review', async () => {
    const tenantId = randomUUID();
    const due = new Date(clock - 3 * DAY_MS - 5 * MINUTE_MS);
    await publish(tenantId, snapshot({ reviewDueAt: due.toISOString() }));
    await ticksOf(app).tick(nextTick());
    const [alert] = await alertsOf(tenantId, 'GOVERNANCE_REVIEW_DUE');
    expect(alert.evidence).toMatchObject({ reviewDueAt: due.toISOString(), daysOverdue: 3 });
  });

  it('should raise GOVERNANCE_UNCLASSIFIED_ACTIVE for traffic of a subject without a tier, until it is classified', async () => {
    const tenantId = randomUUID();
    const agentId = randomUUID();
    // The tenant has adopted governance (M20): another subject of it has a record.
    await publish(tenantId, snapshot());
    const tick = nextTick();
    await transport.publish(
      auditEnvelope(
        tenantId,
        'COMMUNICATION_AUDIT',
        {
          source: { type: 'AGENT', id: agentId, label: 'new agent' },
          sink: { type: 'MCP_SERVER', id: randomUUID() },
          protocol: 'MCP',
          action: 'LOG',
          details: { direction: 'REQUEST' },
        },
        { occurredAt: new Date(tick.getTime() - 5 * MINUTE_MS).toISOString() },
      ),
    );
    await eventually(async () => {
      await ticksOf(app).tick(nextTick());
      const alert = (await alertsOf(tenantId, 'GOVERNANCE_UNCLASSIFIED_ACTIVE')).find(
        (a) => a.subject.id === agentId,
      );
      expect(alert?.evidence).toMatchObject({
        gap: 'UNCLASSIFIED_ACTIVE',
        riskTier: 'UNCLASSIFIED',
        subjectId: agentId,
        subjectName: `AGENT ${agentId}`,
      });
    });
    const record = snapshot({ subjectId: agentId, riskTier: undefined, tierSeverity: undefined });
    await publish(tenantId, record);
    await ticksOf(app).tick(nextTick());
    const ofAgent = async (): Promise<AlertResponse | undefined> =>
      (await alertsOf(tenantId, 'GOVERNANCE_UNCLASSIFIED_ACTIVE')).find(
        (a) => a.subject.id === agentId,
      );
    expect((await ofAgent())?.evidence).toMatchObject({ subjectName: 'billing agent' });
    await publish(tenantId, { ...record, riskTier: 'LOW', tierSeverity: 'LOW', revision: 2 });
    await ticksOf(app).tick(nextTick());
    expect((await ofAgent())?.status).toBe('RESOLVED');
  });

  it('should keep a muted finding quiet but visible, then announce it once unmuted', async () => {
    const tenantId = randomUUID();
    const writer = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:WRITE']);
    const muted = await writer.call<{ id: string }>(app, 'POST', '/audit/v1/monitors/mutes', {
      scope: 'DETECTOR',
      detector: 'GOVERNANCE_REVIEW_DUE',
      reason: 'quarterly review under way',
    });
    expect(muted.status).toBe(201);
    await publish(tenantId, snapshot({ reviewDueAt: new Date(clock - DAY_MS).toISOString() }));
    await ticksOf(app).tick(nextTick());
    const [quiet] = await alertsOf(tenantId, 'GOVERNANCE_REVIEW_DUE');
    expect(quiet).toMatchObject({
      status: 'OPEN',
      suppressedUntil: null,
      suppressedBy: { kind: 'MUTE', id: muted.body.id },
    });
    expect(probe.of('MONITOR_ALERT_TRIGGERED', quiet.id)).toHaveLength(0);

    const unmuted = await app.inject({
      method: 'DELETE',
      url: `/audit/v1/monitors/mutes/${muted.body.id}`,
      headers: {
        authorization: `Bearer ${await issuer.token({ tenantId, subject: randomUUID(), perms: ['AUDIT:WRITE'], name: 'Ann' })}`,
      },
    });
    expect(unmuted.statusCode).toBe(204);
    await ticksOf(app).tick(nextTick());
    const [loud] = await alertsOf(tenantId, 'GOVERNANCE_REVIEW_DUE');
    expect(loud).toMatchObject({ id: quiet.id, suppressedBy: null, suppressedUntil: null });
    await eventually(() => expect(probe.of('MONITOR_ALERT_TRIGGERED', quiet.id)).toHaveLength(1));
    await eventually(() => {
      expect(
        probe.received.filter((e) => e.type === 'MONITOR_MUTED' && e.tenantId === tenantId),
      ).toHaveLength(1);
      expect(
        probe.received.filter((e) => e.type === 'MONITOR_UNMUTED' && e.tenantId === tenantId),
      ).toHaveLength(1);
    });
  });

  it('should suppress findings inside each window of a recurring downtime and not between them', async () => {
    const tenantId = randomUUID();
    const writer = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:WRITE']);
    const record = snapshot({ reviewDueAt: new Date(clock - DAY_MS).toISOString() });
    // Daily, 30 minutes, the first window yesterday: today's window covers the next tick.
    const inWindow = nextTick();
    const startsAt = new Date(inWindow.getTime() - DAY_MS - 10 * MINUTE_MS);
    const scheduled = await writer.call<{ id: string; recurrence: string }>(
      app,
      'POST',
      '/audit/v1/monitors/downtimes',
      {
        scope: 'SUBJECT',
        subjectType: 'AGENT',
        subjectId: record.subjectId,
        reason: 'nightly maintenance',
        startsAt: startsAt.toISOString(),
        durationMinutes: 30,
        recurrence: 'DAILY',
      },
    );
    expect(scheduled.status).toBe(201);
    await publish(tenantId, record);
    await ticksOf(app).tick(inWindow);
    const [quiet] = await alertsOf(tenantId, 'GOVERNANCE_REVIEW_DUE');
    expect(quiet).toMatchObject({
      suppressedBy: { kind: 'DOWNTIME', id: scheduled.body.id },
      suppressedUntil: new Date(startsAt.getTime() + DAY_MS + 30 * MINUTE_MS).toISOString(),
    });
    expect(probe.of('MONITOR_ALERT_TRIGGERED', quiet.id)).toHaveLength(0);
    clock += 30 * MINUTE_MS;
    await ticksOf(app).tick(nextTick());
    const [loud] = await alertsOf(tenantId, 'GOVERNANCE_REVIEW_DUE');
    expect(loud.suppressedBy).toBeNull();
    await eventually(() => expect(probe.of('MONITOR_ALERT_TRIGGERED', quiet.id)).toHaveLength(1));
    await eventually(() =>
      expect(
        probe.received.filter(
          (e) => e.type === 'MONITOR_DOWNTIME_SCHEDULED' && e.tenantId === tenantId,
        ),
      ).toHaveLength(1),
    );
  });

  it('should raise nothing for the traffic of a tenant that keeps no governance record', async () => {
    const tenantId = randomUUID();
    const tick = nextTick();
    await transport.publish(
      auditEnvelope(
        tenantId,
        'COMMUNICATION_AUDIT',
        {
          source: { type: 'AGENT', id: randomUUID() },
          action: 'LOG',
          details: { direction: 'REQUEST' },
        },
        { occurredAt: new Date(tick.getTime() - 5 * MINUTE_MS).toISOString() },
      ),
    );
    await eventually(async () => {
      const rows = await databaseOf(app).inTenant(tenantId, (tx) =>
        tx.query<unknown[]>(`SELECT 1 FROM audit.monitor_sightings WHERE tenant_id = $1`, [
          tenantId,
        ]),
      );
      expect(rows.length).toBeGreaterThan(0);
    });
    await ticksOf(app).tick(tick);
    expect(await alertsOf(tenantId, 'GOVERNANCE_UNCLASSIFIED_ACTIVE')).toEqual([]);
  });

  it('should keep the projection tenant by tenant', async () => {
    const tenantId = randomUUID();
    const record = snapshot();
    await publish(tenantId, record);
    const other = await databaseOf(app).inTenant(randomUUID(), (tx) =>
      app.get(GovernanceProjectionRepository).subjectsOf(tx, tenantId),
    );
    expect(other).toEqual([]);
  });
});
