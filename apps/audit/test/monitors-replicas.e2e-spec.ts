import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase, eventually } from '@agp/testing';

import { DetectorTickService } from '../src/monitors/detectors/detector-tick.service';
import { planSimulation } from '../tools/simulator/simulation';
import { startAudit } from './support/audit-test-app';
import { EventProbe, MonitorsCaller, ticksOf, writerOf } from './monitors-test-kit';

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
});
