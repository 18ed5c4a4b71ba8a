import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase, eventually } from '@agp/testing';

import { MonitorConfigController } from '../src/monitors/config/monitor-config.controller';
import { MonitorConfigResponse } from '../src/monitors/config/monitor-config.service';
import { planSimulation } from '../tools/simulator/simulation';
import { startAudit } from './support/audit-test-app';
import { EventProbe, MonitorsCaller, ticksOf, writerOf } from './monitors-test-kit';

const path = '/audit/v1/monitors/config';

describe(MonitorConfigController.name, () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let probe: EventProbe;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_config');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    probe = await EventProbe.attach(app, ['MONITOR_CONFIG_CHANGED']);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should answer the documented defaults of every detector when nothing was configured', async () => {
    const reader = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:READ']);
    const response = await reader.call<MonitorConfigResponse>(app, 'GET', path);
    expect(response.status).toBe(200);
    expect(response.body.detectors).toHaveLength(27);
    expect(response.body.dismissSuppressionHours).toBe(24);
    expect(response.body.detectors.find((d) => d.detector === 'AGENT_VOLUME_ANOMALY')).toEqual({
      detector: 'AGENT_VOLUME_ANOMALY',
      enabled: true,
      windowMinutes: 15,
      lookbackDays: 7,
      spikeRatio: 3,
      dropRatio: 0.25,
      zScore: 5,
      minVolume: 30,
      minBaselineVolume: 40,
      minRatePct: 0,
      dormantDays: 0,
    });
    expect(response.body.updatedAt).toBeNull();
  });

  it('should store the settings and record MONITOR_CONFIG_CHANGED naming what changed when they are replaced', async () => {
    const admin = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:WRITE'], 'Cara Admin');
    const response = await admin.call<MonitorConfigResponse>(app, 'PUT', path, {
      dismissSuppressionHours: 4,
      detectors: [
        { detector: 'USER_VOLUME_ANOMALY', enabled: false },
        { detector: 'NOVEL_TOOL_CALL', lookbackDays: 14 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      dismissSuppressionHours: 4,
      updatedByLabel: 'Cara Admin',
      updatedAt: expect.any(String),
    });
    expect(response.body.detectors.find((d) => d.detector === 'NOVEL_TOOL_CALL')).toMatchObject({
      lookbackDays: 14,
      enabled: true,
    });
    const event = await eventually(() => {
      const mine = probe.received.filter((e) => e.tenantId === admin.tenantId);
      expect(mine).toHaveLength(1);
      return mine[0];
    });
    expect(event?.data).toMatchObject({
      changedDetectors: ['USER_VOLUME_ANOMALY', 'NOVEL_TOOL_CALL'],
      actor: { id: admin.subject, label: 'Cara Admin' },
    });
    const again = await admin.call<MonitorConfigResponse>(app, 'GET', path);
    expect(again.body.detectors.find((d) => d.detector === 'USER_VOLUME_ANOMALY')?.enabled).toBe(
      false,
    );
  });

  it('should answer 400 listing every bad field when the settings are out of range', async () => {
    const admin = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:WRITE']);
    const response = await admin.call<{ errors: Array<{ field: string }> }>(app, 'PUT', path, {
      detectors: [{ detector: 'MAGIC_ANOMALY', windowMinutes: 2, dropRatio: 3 }],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e) => e.field)).toEqual(
      expect.arrayContaining([
        'detectors.0.detector',
        'detectors.0.windowMinutes',
        'detectors.0.dropRatio',
      ]),
    );
  });

  it('should answer 403 when a reader replaces the settings', async () => {
    const reader = await MonitorsCaller.create(issuer, randomUUID(), ['AUDIT:READ']);
    expect((await reader.call(app, 'PUT', path, {})).status).toBe(403);
  });

  it('should stop a detector when it is disabled', async () => {
    const simulation = planSimulation({
      seed: 31,
      days: 9,
      end: new Date('2026-07-08T00:00:00Z'),
      anomalyDays: 1,
      anomalies: ['AGENT_SPIKE', 'USER_SPIKE'],
    });
    await writerOf(app).writeHours(simulation, simulation.start, simulation.end);
    const admin = await MonitorsCaller.create(issuer, simulation.model.tenantId, ['AUDIT:WRITE']);
    await admin.call(app, 'PUT', path, {
      detectors: [{ detector: 'USER_VOLUME_ANOMALY', enabled: false }],
    });
    const detectors: string[] = [];
    for (const anomaly of simulation.anomalies) {
      const report = await ticksOf(app).tick(new Date(anomaly.start.getTime() + 20 * 60_000));
      detectors.push(
        ...(report?.findings
          .filter((f) => f.subject.id === anomaly.subject.id)
          .map((f) => f.detector) ?? []),
      );
    }
    expect(detectors).toContain('AGENT_VOLUME_ANOMALY');
    expect(detectors).not.toContain('USER_VOLUME_ANOMALY');
  }, 240_000);
});
