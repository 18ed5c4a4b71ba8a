import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase, eventually } from '@agp/testing';

import { DetectorTickService } from '../src/monitors/tick/detector-tick.service';
import { QuietService } from '../src/monitors/quiet/quiet.service';
import { planSimulation } from '../tools/simulator/simulation';
import { startAudit } from './support/audit-test-app';
import { EventProbe, MonitorsCaller, databaseOf, ticksOf, writerOf } from './monitors-test-kit';

const MINUTE = 60_000;

describe(`${DetectorTickService.name} on two replicas`, () => {
  let db: TestDatabase;
  let issuer: TestTokenIssuer;
  let first: NestFastifyApplication;
  let second: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_replicas');
    issuer = await TestTokenIssuer.create();
    first = await startAudit({ databaseUrl: db.url, issuer });
    second = await startAudit({ databaseUrl: db.url, issuer });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.drop();
  });

  it('should raise each alert once when both replicas tick the same minutes', async () => {
    const simulation = planSimulation({
      seed: 21,
      days: 9,
      end: new Date('2026-05-13T00:00:00Z'),
      anomalyDays: 1,
      anomalies: ['AGENT_SPIKE', 'MCP_SERVER_ERRORS', 'NOVEL_TOOL'],
    });
    await writerOf(first).writeHours(simulation, simulation.start, simulation.end);
    const probes = [
      await EventProbe.attach(first, ['MONITOR_ALERT_TRIGGERED']),
      await EventProbe.attach(second, ['MONITOR_ALERT_TRIGGERED']),
    ];
    let opened = 0;
    for (const anomaly of simulation.anomalies) {
      for (const offset of [12, 13, 20]) {
        const at = new Date(anomaly.start.getTime() + offset * MINUTE);
        const reports = await Promise.all([ticksOf(first).tick(at), ticksOf(second).tick(at)]);
        expect(reports.filter((r) => r !== undefined)).toHaveLength(1);
        opened += reports.reduce((sum, r) => sum + (r?.opened ?? 0), 0);
      }
    }
    expect(opened).toBeGreaterThanOrEqual(simulation.anomalies.length);
    const reader = await MonitorsCaller.create(issuer, simulation.model.tenantId, ['AUDIT:READ']);
    const page = await reader.call<{
      items: Array<{ id: string; occurrences: number }>;
      total: number;
    }>(first, 'GET', '/audit/v1/monitors/alerts?pageSize=100');
    expect(page.body.total).toBe(opened);
    for (const anomaly of simulation.anomalies) {
      const mine = await reader.call<{ total: number }>(
        second,
        'GET',
        `/audit/v1/monitors/alerts?detector=${anomaly.detector}&subjectId=${anomaly.subject.id}`,
      );
      expect(mine.body.total).toBe(1);
    }
    await eventually(() => {
      const published = probes.flatMap((p) => p.of('MONITOR_ALERT_TRIGGERED'));
      expect(published).toHaveLength(opened);
      expect(new Set(published.map((e) => (e.data as { alertId: string }).alertId)).size).toBe(
        opened,
      );
    });
  }, 120_000);

  it('should record MONITOR_UNMUTED once for a mute that runs out when both replicas tick', async () => {
    const tenantId = randomUUID();
    const operator = await MonitorsCaller.create(issuer, tenantId, ['AUDIT:READ', 'AUDIT:WRITE']);
    const probes = [
      await EventProbe.attach(first, ['MONITOR_UNMUTED']),
      await EventProbe.attach(second, ['MONITOR_UNMUTED']),
    ];
    const mute = (
      body: Record<string, unknown>,
    ): Promise<{ status: number; body: { id: string } }> =>
      operator.call(first, 'POST', '/audit/v1/monitors/mutes', { reason: 'deploy', ...body });
    const soon = new Date(Date.now() + 2 * MINUTE).toISOString();
    const expiring = await mute({
      scope: 'DETECTOR',
      detector: 'AGENT_VOLUME_ANOMALY',
      until: soon,
    });
    const later = await mute({
      scope: 'DETECTOR',
      detector: 'USER_VOLUME_ANOMALY',
      until: new Date(Date.now() + 10 * 24 * 60 * MINUTE).toISOString(),
    });
    const forever = await mute({ scope: 'DETECTOR', detector: 'POLICY_BLOCK_ANOMALY' });
    const ended = await mute({ scope: 'DETECTOR', detector: 'POLICY_WARN_ANOMALY', until: soon });
    expect([expiring, later, forever, ended].map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(
      (await operator.call(second, 'DELETE', `/audit/v1/monitors/mutes/${ended.body.id}`)).status,
    ).toBe(204);

    // Minutes on both replicas at once, from before the end to well after it (ahead of the clock).
    const base = Math.floor(Date.now() / MINUTE) * MINUTE + 7 * 24 * 60 * MINUTE;
    const unmuted: number[] = [];
    for (const at of [Date.now() + MINUTE, base, base + MINUTE, base + 2 * MINUTE]) {
      const reports = await Promise.all([
        ticksOf(first).tick(new Date(at)),
        ticksOf(second).tick(new Date(at)),
      ]);
      unmuted.push(reports.reduce((sum, r) => sum + (r?.unmuted ?? 0), 0));
    }
    expect(unmuted).toEqual([0, 1, 0, 0]);
    // The claim holds without the tick's lease too: two sweeps racing find nothing left.
    const racing = await Promise.all(
      [first, second].map((app) => app.get(QuietService).recordExpiries(new Date(base), 'race')),
    );
    expect(racing).toEqual([0, 0]);

    await eventually(async () => {
      const published = probes.flatMap((p) => p.of('MONITOR_UNMUTED'));
      const byMute = published.map(
        (e) => (e.data as { details: { muteId: string } }).details.muteId,
      );
      expect([...byMute].sort()).toEqual([ended.body.id, expiring.body.id].sort());
      const expiry = published[byMute.indexOf(expiring.body.id)];
      expect(expiry?.tenantId).toBe(tenantId);
      expect((expiry?.data as { actor: { type: string } }).actor.type).toBe('SERVICE');
      // Recorded: the audit trail stored each exactly once.
      const stored: Array<{ n: string }> = await databaseOf(first).asSystem((tx) =>
        tx.query(
          `SELECT count(*) AS n FROM audit.events WHERE tenant_id = $1 AND event_type = 'MONITOR_UNMUTED'`,
          [tenantId],
        ),
      );
      expect(Number(stored[0]?.n)).toBe(2);
    });
  }, 120_000);
});
