import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  Aggregation,
  AuditableEventData,
  GROUP_BYS,
  MONITOR_METRICS,
  TimeWindow,
  WINDOW_MINUTES,
} from '@agp/contracts';
import { TestDatabase, TestTokenIssuer, createTestDatabase, eventually } from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { AlertResponse } from '../src/monitors/alerts/alert-response';
import { CustomMonitorsController } from '../src/monitors/custom/custom-monitors.controller';
import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import { GroupSeries, aggregate } from '../src/monitors/engine/custom/metric-semantics';
import { MonitorResponse } from '../src/monitors/engine/custom/monitor-definition';
import { RollupSeriesRepository } from '../src/monitors/custom/rollup-series.repository';
import { rollupSourceOf } from '../src/monitors/engine/custom/rollup-source';
import { EventProbe, databaseOf, ticksOf } from './monitors-test-kit';
import { auditEnvelope, startAudit } from './support/audit-test-app';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WINDOWS = Object.keys(WINDOW_MINUTES) as TimeWindow[];
type Json = Record<string, unknown>;
type Problem = { errors?: Array<{ field: string; message: string }>; detail: string };

/** A caller with every verb the monitors API has. */
async function caller(
  issuer: TestTokenIssuer,
  tenantId: string,
  perms: string[],
): Promise<
  (method: string, url: string, body?: unknown) => Promise<{ status: number; body: Json & Problem }>
> {
  const token = await issuer.token({ tenantId, subject: randomUUID(), perms, name: 'Mo Nitor' });
  return async (method, url, body) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return {
      status: response.statusCode,
      body: (response.body ? response.json() : {}) as Json & Problem,
    };
  };
}

let app: NestFastifyApplication;

/** A request hop of the seed: who sent it, when, how long its decision took. */
interface Hop {
  tenantId: string;
  agentId: string;
  userId: string;
  at: number;
  latencyMs: number;
  isError: boolean;
}

describe(CustomMonitorsController.name, () => {
  let db: TestDatabase;
  let issuer: TestTokenIssuer;
  let probe: EventProbe;
  const tenantId = randomUUID();
  const base = '/audit/v1/monitors';
  // The tick a month ahead of the scheduler's own (the lease is per minute).
  const tick = new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + 30 * DAY_MS);
  const windowEnd = tick.getTime() - MINUTE_MS;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_custom');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    probe = await EventProbe.attach(app, [
      'MONITOR_CREATED',
      'MONITOR_CONFIG_CHANGED',
      'MONITOR_DELETED',
      'MONITOR_ALERT_TRIGGERED',
    ]);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const valid = {
    name: 'hot agents',
    monitorType: 'THRESHOLD',
    metric: 'REQUESTS',
    aggregation: 'SUM',
    window: 'LAST_1H',
    groupBy: 'AGENT',
    threshold: 100,
  };

  describe('the API', () => {
    it('should create, read, update and delete a monitor, each recorded', async () => {
      const call = await caller(issuer, randomUUID(), ['AUDIT:ADMIN']);
      const created = await call('POST', base, { ...valid, name: `m-${randomUUID()}` });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        ...valid,
        name: expect.any(String),
        comparison: 'ABOVE',
        minVolume: 0,
        severity: 'MEDIUM',
        enabled: true,
        createdByLabel: 'Mo Nitor',
      });
      const id = String(created.body.id);
      expect((await call('GET', `${base}/${id}`)).body.id).toBe(id);
      const patched = await call('PATCH', `${base}/${id}`, { threshold: 5, severity: 'HIGH' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ threshold: 5, severity: 'HIGH', metric: 'REQUESTS' });
      expect((await call('DELETE', `${base}/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/${id}`)).status).toBe(404);
      await eventually(() => {
        const of = (type: string): number =>
          probe.received.filter(
            (e) => e.type === type && (e.data as { details?: Json }).details?.monitorId === id,
          ).length;
        expect([
          of('MONITOR_CREATED'),
          of('MONITOR_CONFIG_CHANGED'),
          of('MONITOR_DELETED'),
        ]).toEqual([1, 1, 1]);
      });
    });

    it('should list every bad field and change nothing when a monitor is invalid', async () => {
      const call = await caller(issuer, randomUUID(), ['AUDIT:ADMIN']);
      const shape = await call('POST', base, {
        name: '',
        monitorType: 'SYSTEM_TEMPLATE',
        metric: 'BYTES',
        aggregation: 'SUM',
        window: 'LAST_2H',
        groupBy: 'TEAM',
        threshold: 'x',
        extra: true,
      });
      expect(shape.status).toBe(400);
      expect([...new Set(shape.body.errors?.map((e) => e.field))].sort()).toEqual([
        'extra',
        'groupBy',
        'metric',
        'monitorType',
        'name',
        'threshold',
        'window',
      ]);
      const rules = await call('POST', base, {
        ...valid,
        monitorType: 'OUTLIER',
        metric: 'LATENCY_P95_MS',
        aggregation: 'SUM',
        groupBy: 'NONE',
        threshold: 0,
      });
      expect(rules.status).toBe(400);
      expect([...new Set(rules.body.errors?.map((e) => e.field))].sort()).toEqual([
        'aggregation',
        'groupBy',
        'threshold',
      ]);
      expect((await call('GET', base)).body.total).toBe(27);
    });

    it('should answer 409 for a duplicate name, 404 across tenants and 403 without the role', async () => {
      const owner = randomUUID();
      const call = await caller(issuer, owner, ['AUDIT:ADMIN']);
      const created = await call('POST', base, valid);
      expect((await call('POST', base, valid)).status).toBe(409);
      const id = String(created.body.id);
      const stranger = await caller(issuer, randomUUID(), ['AUDIT:ADMIN']);
      expect((await stranger('GET', `${base}/${id}`)).status).toBe(404);
      expect((await stranger('PATCH', `${base}/${id}`, { threshold: 1 })).status).toBe(404);
      expect((await stranger('DELETE', `${base}/${id}`)).status).toBe(404);
      const reader = await caller(issuer, owner, ['AUDIT:READ']);
      expect((await reader('GET', `${base}/${id}`)).status).toBe(200);
      const refused = await reader('POST', base, { ...valid, name: 'other' });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('AUDIT:WRITE');
      const writer = await caller(issuer, owner, ['AUDIT:WRITE']);
      expect((await writer('DELETE', `${base}/${id}`)).status).toBe(403);
      expect((await call('PATCH', `${base}/${id}`, { name: null })).status).toBe(400);
      expect((await call('PATCH', `${base}/${id}`, { aggregation: 'COUNT_DISTINCT' })).status).toBe(
        400,
      );
      expect((await call('GET', `${base}/not-a-uuid`)).status).toBe(400);
    });

    it('should show the 24 built-in detectors, D51 drift, failed pack runs and budget soft limits as SYSTEM_TEMPLATE monitors with their settings', async () => {
      const call = await caller(issuer, randomUUID(), ['AUDIT:ADMIN']);
      await call('PUT', `${base}/config`, {
        detectors: [{ detector: 'AGENT_VOLUME_ANOMALY', enabled: false, windowMinutes: 60 }],
      });
      const listed = await call('GET', `${base}?monitorType=SYSTEM_TEMPLATE&pageSize=100`);
      const items = listed.body.items as MonitorResponse[];
      expect(items).toHaveLength(27);
      const volume = items.find((m) => m.detector === 'AGENT_VOLUME_ANOMALY')!;
      expect(volume).toMatchObject({
        monitorType: 'SYSTEM_TEMPLATE',
        metric: 'REQUESTS',
        groupBy: 'AGENT',
        window: 'LAST_1H',
        enabled: false,
        settings: expect.objectContaining({ windowMinutes: 60, spikeRatio: 3 }),
      });
      expect((await call('GET', `${base}/${volume.id}`)).body.detector).toBe(
        'AGENT_VOLUME_ANOMALY',
      );
      expect((await call('PATCH', `${base}/${volume.id}`, { threshold: 1 })).status).toBe(409);
      expect((await call('DELETE', `${base}/${volume.id}`)).status).toBe(409);
      const governance = items.find((m) => m.detector === 'GOVERNANCE_REVIEW_DUE')!;
      expect(governance).toMatchObject({ metric: null, aggregation: null, enabled: true });
    });

    it('should validate mutes and downtimes, name each bad field, and hide them from other tenants', async () => {
      const owner = randomUUID();
      const call = await caller(issuer, owner, ['AUDIT:ADMIN']);
      const mute = await call('POST', `${base}/mutes`, {
        scope: 'SUBJECT',
        subjectType: 'AGENT',
        detector: 'NOVEL_TOOL_CALL',
        reason: 'x',
        until: '2020-01-01T00:00:00Z',
      });
      expect(mute.status).toBe(400);
      expect(mute.body.errors?.map((e) => e.field).sort()).toEqual([
        'detector',
        'subjectId',
        'until',
      ]);
      const unknownMonitor = await call('POST', `${base}/mutes`, {
        scope: 'MONITOR',
        monitorId: randomUUID(),
        reason: 'x',
      });
      expect(unknownMonitor.body.errors?.[0]?.field).toBe('monitorId');
      const downtime = await call('POST', `${base}/downtimes`, {
        scope: 'DETECTOR',
        detector: 'TENANT_ERROR_SPIKE',
        reason: 'deploy',
        startsAt: new Date().toISOString(),
        durationMinutes: 2_000,
        recurrence: 'DAILY',
      });
      expect(downtime.status).toBe(400);
      expect(downtime.body.errors?.[0]?.field).toBe('durationMinutes');
      const ok = await call('POST', `${base}/downtimes`, {
        scope: 'DETECTOR',
        detector: 'TENANT_ERROR_SPIKE',
        reason: 'deploy',
        startsAt: new Date(Date.now() + DAY_MS).toISOString(),
        durationMinutes: 60,
      });
      expect(ok.status).toBe(201);
      const id = String(ok.body.id);
      const stranger = await caller(issuer, randomUUID(), ['AUDIT:ADMIN']);
      expect((await stranger('GET', `${base}/downtimes/${id}`)).status).toBe(404);
      expect((await stranger('DELETE', `${base}/downtimes/${id}`)).status).toBe(404);
      const reader = await caller(issuer, owner, ['AUDIT:READ']);
      expect((await reader('DELETE', `${base}/downtimes/${id}`)).status).toBe(403);
      expect((await reader('GET', `${base}/downtimes/${id}`)).body.inEffect).toBe(false);
      expect((await call('DELETE', `${base}/downtimes/${id}`)).status).toBe(204);
      expect((await call('DELETE', `${base}/downtimes/${id}`)).status).toBe(409);
      expect((await call('GET', `${base}/downtimes?active=false`)).body.total).toBe(1);
      expect((await call('GET', `${base}/downtimes`)).body.total).toBe(0);
      const template = (await call('GET', `${base}?monitorType=SYSTEM_TEMPLATE`)).body
        .items as MonitorResponse[];
      const muted = await call('POST', `${base}/mutes`, {
        scope: 'MONITOR',
        monitorId: template[0].id,
        reason: 'noisy',
      });
      expect(muted.status).toBe(201);
      expect((await call('GET', `${base}/mutes?active=true`)).body.total).toBe(1);
      expect((await call('DELETE', `${base}/mutes/${String(muted.body.id)}`)).status).toBe(204);
      expect((await call('DELETE', `${base}/mutes/${String(muted.body.id)}`)).status).toBe(409);
      expect((await call('GET', `${base}/mutes?active=true`)).body.total).toBe(0);
    });
  });

  describe('evaluation', () => {
    const agents = Array.from({ length: 5 }, () => randomUUID());
    const users = Array.from({ length: 3 }, () => randomUUID());
    const serverId = randomUUID();
    /** Offsets (minutes before the window's end) of the hops: each window holds a few more. */
    const offsets = [2, 10, 30, 120, 600, 3_000];
    const hops: Hop[] = [];

    beforeAll(async () => {
      const add = (tenant: string, agentIndex: number, at: number, n: number): void => {
        for (let i = 0; i < n; i += 1) {
          hops.push({
            tenantId: tenant,
            agentId: agents[agentIndex],
            userId: users[(agentIndex + i) % users.length],
            at: at + i * 1_000,
            latencyMs: 5 + ((agentIndex * 7 + i * 13) % 40),
            isError: i % 5 === 0,
          });
        }
      };
      for (const offset of offsets) {
        const at = windowEnd - offset * MINUTE_MS;
        // Four ordinary agents of 1 to 4 hops and a hot one of 40, at every offset.
        [1, 2, 3, 4, 40].forEach((n, index) => add(tenantId, index, at, n));
        // The same windows a day and a week earlier: one hop each (CHANGE's comparison).
        add(tenantId, 0, at - DAY_MS, 1);
        add(tenantId, 0, at - 7 * DAY_MS, 1);
        // Another tenant's traffic on the same agent ids must count nowhere here.
        add(randomUUID(), 4, at, 50);
      }
      const envelopes = hops.map((hop) =>
        auditEnvelope(
          hop.tenantId,
          'COMMUNICATION_AUDIT',
          {
            actor: { type: 'USER', id: hop.userId },
            source: { type: 'AGENT', id: hop.agentId },
            sink: { type: 'MCP_SERVER', id: serverId },
            protocol: 'MCP',
            action: hop.isError ? 'ERROR' : 'LOG',
            details: { direction: 'REQUEST', latencyMs: hop.latencyMs },
          } satisfies AuditableEventData,
          { occurredAt: new Date(hop.at).toISOString() },
        ),
      );
      const ingest = app.get(IngestService);
      for (let i = 0; i < envelopes.length; i += 500) {
        await ingest.ingest(envelopes.slice(i, i + 500));
      }
    });

    /** The test's own count of hops in [from, to), by agent or for the tenant. */
    function count(from: number, to: number, agentId?: string): number {
      return hops.filter(
        (h) =>
          h.tenantId === tenantId &&
          h.at >= from &&
          h.at < to &&
          (agentId === undefined || h.agentId === agentId),
      ).length;
    }

    function windowStart(window: TimeWindow): number {
      return windowEnd - WINDOW_MINUTES[window] * MINUTE_MS;
    }

    async function alertsOf(
      call: Awaited<ReturnType<typeof caller>>,
      monitorId: string,
    ): Promise<AlertResponse[]> {
      return (await call('GET', `${base}/alerts?monitorId=${monitorId}&pageSize=100`)).body
        .items as AlertResponse[];
    }

    it('should raise each monitor type on every window with the value the test computes itself', async () => {
      const call = await caller(issuer, tenantId, ['AUDIT:ADMIN']);
      const hot = agents[4];
      const created: Array<{ window: TimeWindow; type: string; id: string }> = [];
      for (const window of WINDOWS) {
        const start = windowStart(window);
        const hotTotal = count(start, windowEnd, hot);
        const specs = [
          { monitorType: 'THRESHOLD', groupBy: 'AGENT', threshold: hotTotal - 1 },
          { monitorType: 'CHANGE', groupBy: 'NONE', threshold: 100 },
          { monitorType: 'OUTLIER', groupBy: 'AGENT', threshold: 3 },
        ];
        for (const spec of specs) {
          const response = await call('POST', base, {
            ...valid,
            ...spec,
            window,
            name: `${spec.monitorType} ${window}`,
          });
          expect(response.status).toBe(201);
          created.push({ window, type: spec.monitorType, id: String(response.body.id) });
        }
      }
      await ticksOf(app).tick(tick);
      for (const { window, type, id } of created) {
        const start = windowStart(window);
        const alerts = await alertsOf(call, id);
        const shift = window === 'LAST_7D' ? 7 * DAY_MS : DAY_MS;
        if (type === 'CHANGE') {
          expect({ window, alerts: alerts.length }).toEqual({ window, alerts: 1 });
          expect(alerts[0].subject).toEqual({ type: 'TENANT', id: tenantId });
          expect(alerts[0].evidence).toMatchObject({
            kind: 'CUSTOM_QUERY',
            monitorType: 'CHANGE',
            window,
            observedValue: count(start, windowEnd),
            comparisonValue: count(start - shift, windowEnd - shift),
          });
        } else {
          // Only the hot agent crosses: above the threshold, or far from its peers.
          expect({ window, type, subjects: alerts.map((a) => a.subject.id) }).toEqual({
            window,
            type,
            subjects: [hot],
          });
          expect(alerts[0]).toMatchObject({ detector: null, monitorId: id, direction: 'SPIKE' });
          expect(alerts[0].evidence).toMatchObject({
            kind: 'CUSTOM_QUERY',
            monitorType: type,
            metric: 'REQUESTS',
            aggregation: 'SUM',
            window,
            groupBy: 'AGENT',
            observedValue: count(start, windowEnd, hot),
          });
        }
      }
      await eventually(() =>
        expect(
          probe.received.filter(
            (e) =>
              e.type === 'MONITOR_ALERT_TRIGGERED' &&
              created.some((c) => c.id === (e.data as Json).monitorId),
          ),
        ).toHaveLength(WINDOWS.length * 3),
      );
    });

    it('should compute latency percentiles, error rates, rates and distinct users as the test does', async () => {
      const call = await caller(issuer, tenantId, ['AUDIT:ADMIN']);
      const window: TimeWindow = 'LAST_4H';
      const start = windowStart(window);
      const inWindow = hops.filter(
        (h) => h.tenantId === tenantId && h.at >= start && h.at < windowEnd,
      );
      const minuteOf = (h: Hop): number => Math.floor(h.at / MINUTE_MS);
      const byMinute = (list: Hop[]): Map<number, Hop[]> => {
        const map = new Map<number, Hop[]>();
        for (const h of list) {
          map.set(minuteOf(h), [...(map.get(minuteOf(h)) ?? []), h]);
        }
        return map;
      };
      const nearestRank = (values: number[], p: number): number =>
        [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil(p * values.length)) - 1];
      const hot = agents[4];
      const hotMinutes = [...byMinute(inWindow.filter((h) => h.agentId === hot)).values()];
      const expectations: Array<[Json, number]> = [
        [
          { metric: 'LATENCY_P95_MS', aggregation: 'MAX', groupBy: 'AGENT' },
          Math.max(
            ...hotMinutes.map((m) =>
              nearestRank(
                m.map((h) => h.latencyMs),
                0.95,
              ),
            ),
          ),
        ],
        [
          { metric: 'ERROR_RATE_PCT', aggregation: 'AVG', groupBy: 'AGENT' },
          hotMinutes.reduce((s, m) => s + (100 * m.filter((h) => h.isError).length) / m.length, 0) /
            hotMinutes.length,
        ],
        [
          { metric: 'REQUESTS', aggregation: 'RATE_PER_MIN', groupBy: 'AGENT' },
          count(start, windowEnd, hot) / WINDOW_MINUTES[window],
        ],
        [
          { metric: 'USER_DISTINCT', aggregation: 'COUNT_DISTINCT', groupBy: 'AGENT' },
          new Set(inWindow.filter((h) => h.agentId === hot).map((h) => h.userId)).size,
        ],
      ];
      for (const [index, [query, expected]] of expectations.entries()) {
        const created = await call('POST', base, {
          ...valid,
          ...query,
          window,
          name: `${String(query.metric)} ${String(query.aggregation)}`,
          threshold: -1,
        });
        expect(created.status).toBe(201);
        // Minutes 2 to 5 after the first tick: the four-hour window still holds the same hops.
        await ticksOf(app).tick(new Date(tick.getTime() + (index + 2) * MINUTE_MS));
        const alerts = await alertsOf(call, String(created.body.id));
        const hotAlert = alerts.find((a) => a.subject.id === hot);
        expect({ query, observed: hotAlert?.evidence }).toEqual({
          query,
          observed: expect.objectContaining({
            observedValue: Math.round(expected * 1_000) / 1_000,
          }),
        });
      }
    });

    it('should resolve a custom monitor’s alert by itself once its condition no longer holds', async () => {
      const call = await caller(issuer, tenantId, ['AUDIT:ADMIN']);
      const created = await call('POST', base, {
        ...valid,
        name: 'resolving',
        window: 'LAST_5M',
        groupBy: 'NONE',
        threshold: 10,
      });
      const id = String(created.body.id);
      // One minute after the first tick: the five minutes still hold the hops two minutes before.
      await ticksOf(app).tick(new Date(tick.getTime() + MINUTE_MS));
      const [open] = await alertsOf(call, id);
      expect(open).toMatchObject({
        status: 'OPEN',
        evidence: {
          observedValue: count(windowEnd - 4 * MINUTE_MS, windowEnd + MINUTE_MS),
        },
      });
      // Ten minutes on, the last five minutes are empty: the tenant's 0 is not above 10.
      await ticksOf(app).tick(new Date(tick.getTime() + 17 * MINUTE_MS));
      const [closed] = await alertsOf(call, id);
      expect(closed).toMatchObject({
        id: open.id,
        status: 'RESOLVED',
        resolvedByLabel: 'audit monitors',
      });
    });

    it('should read from the rollups what the events give for every pair the rollups hold (M26)', async () => {
      const database = databaseOf(app);
      const [events, rollups] = [
        app.get(CustomMonitorsRepository),
        app.get(RollupSeriesRepository),
      ];
      const aggregations: Aggregation[] = ['SUM', 'AVG', 'MAX', 'P95'];
      let compared = 0;
      for (const metric of MONITOR_METRICS) {
        for (const groupBy of GROUP_BYS) {
          const source = rollupSourceOf(metric, groupBy);
          if (!source) {
            continue;
          }
          for (const window of WINDOWS) {
            const [from, to] = [new Date(windowStart(window)), new Date(windowEnd)];
            const startMinute = windowStart(window) / MINUTE_MS;
            const minutes = WINDOW_MINUTES[window];
            const [raw, totals, byMinute] = await database.inTenant(tenantId, async (tx) => [
              await events.minuteSeries(tx, tenantId, metric, groupBy, from, to),
              await rollups.totals(tx, tenantId, source, from, to),
              await rollups.minutes(tx, tenantId, source, from, to),
            ]);
            const valuesOf = (list: GroupSeries[], of: Aggregation[]): Json =>
              Object.fromEntries(
                list.map((g) => [
                  g.group,
                  of.map((a) => aggregate(metric, a, g, minutes, startMinute)),
                ]),
              );
            const label = { metric, groupBy, window };
            expect({ ...label, v: valuesOf(totals, ['SUM', 'AVG']) }).toEqual({
              ...label,
              v: valuesOf(raw, ['SUM', 'AVG']),
            });
            expect({ ...label, v: valuesOf(byMinute, aggregations) }).toEqual({
              ...label,
              v: valuesOf(raw, aggregations),
            });
            compared += raw.length;
          }
        }
      }
      // Requests by tenant, agent, user and MCP server over six windows: not a comparison of nothing.
      expect(compared).toBeGreaterThanOrEqual(60);
    });
  });
});
