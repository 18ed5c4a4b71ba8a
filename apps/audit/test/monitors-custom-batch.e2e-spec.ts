import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  AGGREGATIONS,
  AuditEventType,
  AuditableEventData,
  GROUP_BYS,
  MONITOR_METRICS,
  TimeWindow,
  WINDOW_MINUTES,
} from '@agp/contracts';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { CustomMonitorsEvaluatorService } from '../src/monitors/custom/custom-monitors-evaluator.service';
import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import {
  GroupSeries,
  METRIC_KIND,
  aggregationAllowed,
} from '../src/monitors/engine/custom/metric-semantics';
import { CustomMonitorType } from '../src/monitors/engine/custom/monitor-definition';
import { MetricSeriesRepository } from '../src/monitors/custom/metric-series.repository';
import { comparisonOffsetMinutes } from '../src/monitors/engine/custom/monitor-evaluation';
import { RollupSeriesRepository } from '../src/monitors/custom/rollup-series.repository';
import { rollupSourceOf } from '../src/monitors/engine/custom/rollup-source';
import { Finding } from '../src/monitors/engine/monitors.types';
import { databaseOf } from './monitors-test-kit';
import { auditEnvelope, startAudit } from './support/audit-test-app';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WINDOWS = Object.keys(WINDOW_MINUTES) as TimeWindow[];
const TYPES: readonly CustomMonitorType[] = ['THRESHOLD', 'CHANGE', 'OUTLIER'];

/** A series as plain data, groups and minutes sorted, values to 9 digits (float sums' order). */
function plain(list: GroupSeries[]): unknown {
  return [...list]
    .sort((a, b) => a.group.localeCompare(b.group))
    .map((s) => ({
      group: s.group,
      samples: s.samples,
      total: s.total,
      distinct: s.distinct,
      minutes: [...s.minutes.entries()]
        .sort(([a], [b]) => a - b)
        .map(([m, v]) => [m, Math.round(v * 1e9) / 1e9]),
    }));
}

function plainFindings(findings: Finding[]): string[] {
  return findings.map((f) => JSON.stringify([f.monitorId, f.subject, f.evidence])).sort();
}

/**
 * M27: the tick reads every window of a rollup counter, and every non-distinct metric and window
 * of a grouping, in one statement. These tests pin that the batched reads answer what each read
 * alone answers, and what the test counts itself, and that a tick's batched evaluation finds what
 * each monitor evaluated alone finds.
 */
describe('custom monitors, batched reads (M27)', () => {
  let app: NestFastifyApplication;
  let db: TestDatabase;
  const tenantId = randomUUID();
  const tick = new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + 30 * DAY_MS);
  const windowEnd = tick.getTime() - MINUTE_MS;
  const endMinute = windowEnd / MINUTE_MS;
  const agents = Array.from({ length: 6 }, () => randomUUID());
  const users = Array.from({ length: 4 }, () => randomUUID());
  const servers = Array.from({ length: 3 }, () => randomUUID());
  const gateways = Array.from({ length: 2 }, () => randomUUID());
  const providers = Array.from({ length: 2 }, () => randomUUID());
  const policies = Array.from({ length: 3 }, () => randomUUID());
  /** Every request hop the test sends to its tenant: when and from which agent. */
  const requests: Array<{ at: number; agentId: string }> = [];
  /** Every event the test ingests, as sent. */
  const envelopes: Array<ReturnType<typeof auditEnvelope>> = [];

  beforeAll(async () => {
    db = await createTestDatabase('monitors_custom_batch');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
    const actions = ['LOG', 'BLOCK', 'WARN', 'MASK', 'HUMAN_REVIEW_REQUIRED', 'ERROR'] as const;
    // Hops at offsets inside every window, a day and a week earlier (CHANGE), of every kind.
    const offsets = [2, 3, 9, 40, 100, 200, 700, 1_500, 3_000, 9_000];
    let n = 0;
    for (const offset of offsets) {
      for (const shift of [0, DAY_MS, 7 * DAY_MS]) {
        for (let i = 0; i < 14 - (shift > 0 ? 9 : 0) + (offset % 5); i += 1) {
          n += 1;
          const at = windowEnd - offset * MINUTE_MS - shift + (i % 3) * MINUTE_MS + i * 997;
          const agentId = agents[(i * i + offset) % agents.length];
          const isLlm = n % 6 === 0;
          const type: AuditEventType =
            n % 29 === 0
              ? 'LLM_GATEWAY_FAILOVER'
              : isLlm
                ? 'LLM_GATEWAY_CALL'
                : 'COMMUNICATION_AUDIT';
          const data: AuditableEventData = {
            actor: { type: 'USER', id: users[(n * 7) % users.length] },
            source: { type: 'AGENT', id: agentId },
            sink: isLlm
              ? { type: 'LLM_GATEWAY', id: gateways[n % gateways.length] }
              : { type: 'MCP_SERVER', id: servers[n % servers.length] },
            protocol: isLlm ? 'REST' : 'MCP',
            action: isLlm ? 'LOG' : actions[n % actions.length],
            policyIds: isLlm ? [] : [policies[n % policies.length]],
            details: {
              direction: n % 11 === 0 ? 'RESPONSE' : 'REQUEST',
              latencyMs: 3 + ((n * 37) % 180),
              ...(n % 13 === 0 ? { outcome: 'ERROR' } : {}),
              ...(isLlm ? { llmProviderId: providers[n % providers.length] } : {}),
              ...(!isLlm && n % 2 === 0 ? { toolName: `tool_${n % 3}` } : {}),
            },
          };
          if (type === 'COMMUNICATION_AUDIT' && data.details?.direction === 'REQUEST') {
            requests.push({ at, agentId });
          }
          envelopes.push(
            auditEnvelope(tenantId, type, data, { occurredAt: new Date(at).toISOString() }),
          );
        }
      }
    }
    const ingest = app.get(IngestService);
    for (let i = 0; i < envelopes.length; i += 500) {
      await ingest.ingest(envelopes.slice(i, i + 500));
    }
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  /** Each window of the tick, and the same window a day or a week earlier (CHANGE). */
  const ranges = WINDOWS.flatMap((window) => {
    const fromMinute = endMinute - WINDOW_MINUTES[window];
    const back = comparisonOffsetMinutes(window);
    return [
      { fromMinute, toMinute: endMinute },
      { fromMinute: fromMinute - back, toMinute: endMinute - back },
    ];
  });

  it('should answer for every metric, grouping and window of one pass what each read alone answers', async () => {
    const repository = app.get(CustomMonitorsRepository);
    const metrics = MONITOR_METRICS.filter((m) => METRIC_KIND[m] !== 'DISTINCT');
    let compared = 0;
    for (const groupBy of GROUP_BYS) {
      const batched = await databaseOf(app).inTenant(tenantId, (tx) =>
        repository.minuteSeriesOver(tx, tenantId, groupBy, metrics, ranges),
      );
      for (const [i, metric] of metrics.entries()) {
        for (const [k, range] of ranges.entries()) {
          const alone = await databaseOf(app).inTenant(tenantId, (tx) =>
            repository.minuteSeries(
              tx,
              tenantId,
              metric,
              groupBy,
              new Date(range.fromMinute * MINUTE_MS),
              new Date(range.toMinute * MINUTE_MS),
            ),
          );
          const label = { metric, groupBy, range: k };
          expect({ ...label, series: plain(batched[i][k]) }).toEqual({
            ...label,
            series: plain(alone),
          });
          compared += alone.length;
        }
      }
    }
    // Not a comparison of nothing: most reads have groups.
    expect(compared).toBeGreaterThan(1_000);
  });

  it('should answer from the per-minute cells (M29) what the events give, for every metric, grouping and window', async () => {
    // A redelivered batch is stored no second time, and counted in no cell a second time.
    expect(await app.get(IngestService).ingest(envelopes.slice(0, 200))).toBe(0);
    const series = app.get(MetricSeriesRepository);
    const repository = app.get(CustomMonitorsRepository);
    let compared = 0;
    for (const groupBy of GROUP_BYS) {
      const reads = MONITOR_METRICS.flatMap((metric) => ranges.map((range) => ({ metric, range })));
      const answers = await databaseOf(app).inTenant(tenantId, (tx) =>
        series.seriesOver(tx, tenantId, groupBy, reads),
      );
      // Only the groups of some volume wanted: the same series, of those groups.
      const minSamples = 5;
      const wanted = await databaseOf(app).inTenant(tenantId, (tx) =>
        series.seriesOver(
          tx,
          tenantId,
          groupBy,
          reads,
          reads.map((_read, k) => [{ read: k, minSamples }]),
        ),
      );
      for (const [i, { metric, range }] of reads.entries()) {
        expect({ metric, groupBy, series: plain(wanted[i]) }).toEqual({
          metric,
          groupBy,
          series: plain(answers[i].filter((s) => s.samples >= minSamples)),
        });
        const [from, to] = [range.fromMinute, range.toMinute].map((m) => new Date(m * MINUTE_MS));
        const alone = await databaseOf(app).inTenant(tenantId, (tx) =>
          repository.minuteSeries(tx, tenantId, metric, groupBy, from, to),
        );
        const label = { metric, groupBy, range: ranges.indexOf(range) };
        expect({ ...label, series: plain(answers[i]) }).toEqual({ ...label, series: plain(alone) });
        compared += alone.length;
      }
    }
    // Not a comparison of nothing: most reads have groups.
    expect(compared).toBeGreaterThan(1_000);
  });

  it('should answer for a distinct metric in one statement what the single read answers', async () => {
    const repository = app.get(CustomMonitorsRepository);
    let compared = 0;
    for (const metric of MONITOR_METRICS.filter((m) => METRIC_KIND[m] === 'DISTINCT')) {
      for (const groupBy of GROUP_BYS) {
        for (const [k, range] of ranges.entries()) {
          const [from, to] = [range.fromMinute, range.toMinute].map((m) => new Date(m * MINUTE_MS));
          const [hashed, alone] = await databaseOf(app).inTenant(tenantId, async (tx) => [
            await repository.distinctSeries(tx, tenantId, metric, groupBy, from, to),
            await repository.minuteSeries(tx, tenantId, metric, groupBy, from, to),
          ]);
          const label = { metric, groupBy, range: k };
          expect({ ...label, series: plain(hashed) }).toEqual({ ...label, series: plain(alone) });
          compared += alone.filter((s) => (s.distinct ?? 0) > 0).length;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('should give each window of one rollup read the requests the test counts itself', async () => {
    const rollups = app.get(RollupSeriesRepository);
    const source = rollupSourceOf('REQUESTS', 'AGENT')!;
    const [totals, minutes] = await databaseOf(app).inTenant(tenantId, async (tx) => [
      await rollups.totalsOver(tx, tenantId, source, ranges),
      await rollups.minutesOver(tx, tenantId, source, ranges),
    ]);
    for (const [k, range] of ranges.entries()) {
      const expected: Record<string, number> = {};
      for (const r of requests) {
        if (r.at >= range.fromMinute * MINUTE_MS && r.at < range.toMinute * MINUTE_MS) {
          expected[r.agentId] = (expected[r.agentId] ?? 0) + 1;
        }
      }
      const byGroup = (list: GroupSeries[], of: (s: GroupSeries) => number): unknown =>
        Object.fromEntries(list.map((s) => [s.group, of(s)]));
      expect({ range: k, totals: byGroup(totals[k], (s) => s.total ?? -1) }).toEqual({
        range: k,
        totals: expected,
      });
      expect({
        range: k,
        minutes: byGroup(minutes[k], (s) => [...s.minutes.values()].reduce((a, b) => a + b, 0)),
      }).toEqual({ range: k, minutes: expected });
    }
    expect(ranges.filter((_r, k) => totals[k].length > 0).length).toBeGreaterThan(6);
  });

  it('should find at a tick with every monitor due what each monitor evaluated alone finds', async () => {
    const monitors = app.get(CustomMonitorsRepository);
    const evaluator = app.get(CustomMonitorsEvaluatorService);
    const database = databaseOf(app);
    const ids: string[] = [];
    let i = 0;
    await database.inTenant(tenantId, async (tx) => {
      for (const metric of MONITOR_METRICS) {
        for (const groupBy of GROUP_BYS) {
          i += 1;
          let monitorType = TYPES[i % TYPES.length];
          if (monitorType === 'OUTLIER' && groupBy === 'NONE') {
            monitorType = 'CHANGE';
          }
          const allowed = AGGREGATIONS.filter((a) => aggregationAllowed(metric, a));
          const id = randomUUID();
          ids.push(id);
          await monitors.insert(tx, tenantId, id, {
            name: `batch ${i}`,
            description: null,
            monitorType,
            metric,
            aggregation: allowed[i % allowed.length],
            window: WINDOWS[i % WINDOWS.length],
            groupBy,
            comparison: 'ABOVE',
            // Low bars, so that most groups are findings and their values are compared.
            threshold: monitorType === 'THRESHOLD' ? -1 : monitorType === 'CHANGE' ? 1 : 0.1,
            minVolume: monitorType === 'CHANGE' ? 1 : 0,
            severity: 'MEDIUM',
            enabled: true,
            updatedByLabel: 'test',
          });
        }
      }
    });
    const evaluate = async (enabled: string[]): Promise<Finding[]> => {
      await database.inTenant(tenantId, (tx) =>
        tx.query(
          `UPDATE audit.monitor_definitions SET enabled = id = ANY($2::uuid[]), last_evaluated_at = NULL
           WHERE tenant_id = $1`,
          [tenantId, enabled],
        ),
      );
      return (await evaluator.evaluate(tenantId, tick)).findings;
    };
    const together = await evaluate(ids);
    const alone: Finding[] = [];
    for (const id of ids) {
      alone.push(...(await evaluate([id])));
    }
    expect(plainFindings(together)).toEqual(plainFindings(alone));
    // Every metric and grouping is a monitor; those with traffic (64 of 136 here) find something.
    expect(new Set(alone.map((f) => f.monitorId)).size).toBeGreaterThan(ids.length / 3);
  });

  // Last: the prune deletes cells of every tenant.
  it('should keep each group total (M33) equal to the events of its cells, through a prune', async () => {
    const database = databaseOf(app);
    const compared = (): Promise<Array<{ events: number; cells: number }>> =>
      database.asSystem((tx) =>
        tx.query(
          `SELECT group_by, group_key, coalesce(t.events, 0)::int AS events, coalesce(c.n, 0)::int AS cells
           FROM audit.monitor_series_totals t
           FULL JOIN (SELECT tenant_id, group_by, group_key, sum(traffic + llm_failovers) AS n
                      FROM audit.monitor_series GROUP BY 1, 2, 3) c USING (tenant_id, group_by, group_key)
           WHERE tenant_id = $1`,
          [tenantId],
        ),
      );
    const sum = (rows: Array<{ events: number }>): number =>
      rows.reduce((total, row) => total + row.events, 0);
    const before = await compared();
    // The cells of the CHANGE comparison a week back (and older) are pruned.
    await database.asSystem((tx) =>
      app.get(MetricSeriesRepository).prune(tx, endMinute - 2 * 1_440),
    );
    const after = await compared();

    expect(before.length).toBeGreaterThan(10);
    expect(before.filter((row) => row.events !== row.cells)).toEqual([]);
    expect(after.filter((row) => row.events !== row.cells || row.events <= 0)).toEqual([]);
    expect(sum(after)).toBeLessThan(sum(before));
    expect(sum(after)).toBeGreaterThan(0);
  });
});
