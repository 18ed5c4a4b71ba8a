import { randomUUID } from 'node:crypto';

import { AGGREGATIONS, GroupBy, MONITOR_METRICS, MonitorMetric } from '@agp/contracts';
import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from '../../database/data-source';
import { needsMinuteValues } from './metric-read-plan';
import { GroupSeries, aggregate, aggregationAllowed } from '../engine/custom/metric-semantics';
import { SeriesCell } from '../engine/custom/metric-series';
import { MetricSeriesRepository, SeriesRead } from './metric-series.repository';

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The statistics over minutes a monitor of `metric` can ask the database for (M44). */
function statisticsOf(metric: MonitorMetric): SeriesRead['statistics'] {
  return AGGREGATIONS.filter(
    (aggregation) =>
      aggregationAllowed(metric, aggregation) && needsMinuteValues({ metric, aggregation }),
  );
}

/**
 * M44: the window values the database computes are exactly what the process computes from the
 * minutes (`seriesOver`, then `aggregate`), on a real audit schema with cells of every kind:
 * zeros, busy minutes, fractional latencies (a float sum's order), id sets.
 */
describe(MetricSeriesRepository.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const sut = new MetricSeriesRepository();
  const tenantId = randomUUID();
  const groupBy: GroupBy = 'AGENT';
  const groups = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const start = 29_000_000;
  /** Windows of several widths, a full one (no zero minutes for a busy group) among them. */
  const ranges = [
    { fromMinute: start, toMinute: start + 5 },
    { fromMinute: start, toMinute: start + 15 },
    { fromMinute: start + 3, toMinute: start + 63 },
    { fromMinute: start, toMinute: start + 240 },
    { fromMinute: start + 100, toMinute: start + 101 },
  ];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('audit_metric_series_repo');
    const options = auditDataSourceOptions(testDatabase.url);
    const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
    await dataSource.initialize();
    await migrate(dataSource, options.schema);
    database = new Database(dataSource, options.schema);
    const random = generator(17);
    const int = (n: number): number => Math.floor(random() * n);
    const cells: SeriesCell[] = [];
    for (const [g, key] of groups.entries()) {
      for (let minute = start; minute < start + 240; minute += 1) {
        // Group a busy every minute of the first windows, the others sparser and sparser.
        if (!(g === 0 && minute < start + 20) && random() > 0.6 / (g + 1)) {
          continue;
        }
        const latencies = Array.from({ length: int(4) }, () => int(300_000) / 997);
        const users = [...new Set(Array.from({ length: int(3) }, () => `u${int(6)}`))];
        const agents = [...new Set(Array.from({ length: int(3) }, () => `a${int(6)}`))];
        const traffic = int(5);
        cells.push({
          groupBy,
          key,
          minute,
          requests: int(6),
          blocks: int(2),
          warns: int(2),
          masks: int(3),
          hitlHolds: int(2),
          errors: Math.min(traffic, int(3)),
          llmCalls: int(3),
          llmFailovers: int(2),
          toolCalls: int(3),
          mcpRequests: int(4),
          traffic,
          latencySum: latencies.reduce((sum, l) => sum + l, 0),
          latencies,
          users,
          userEvents: users.length > 0 ? users.length + int(2) : 0,
          agents,
          agentEvents: agents.length > 0 ? agents.length + int(2) : 0,
        });
      }
    }
    await database.inTenant(tenantId, (tx) => sut.add(tx, tenantId, cells));
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  /** Each group's window values as `aggregate` gives them, for every aggregation of the metric. */
  function valuesOf(
    metric: MonitorMetric,
    list: GroupSeries[],
    width: number,
    from: number,
  ): unknown {
    return Object.fromEntries(
      [...list]
        .sort((x, y) => (x.group < y.group ? -1 : 1))
        .map((series) => [
          series.group,
          {
            samples: series.samples,
            values: AGGREGATIONS.filter((a) => aggregationAllowed(metric, a)).map((a) => [
              a,
              aggregate(metric, a, series, width, from),
            ]),
          },
        ]),
    );
  }

  it('should compute in the database every window value the process computes from the minutes', async () => {
    const reads: SeriesRead[] = MONITOR_METRICS.flatMap((metric) =>
      ranges.map((range) => ({ metric, range, statistics: statisticsOf(metric) })),
    );
    const [inDatabase, fromMinutes] = await database.inTenant(tenantId, async (tx) => [
      await sut.windowValuesOver(tx, tenantId, groupBy, reads),
      await sut.seriesOver(tx, tenantId, groupBy, reads),
    ]);
    let compared = 0;
    let withMinutes = 0;
    for (const [k, { metric, range }] of reads.entries()) {
      const width = range.toMinute - range.fromMinute;
      const label = { metric, range: k };
      withMinutes += inDatabase[k].filter((series) => series.minutes.size > 0).length;
      expect({
        ...label,
        values: valuesOf(metric, inDatabase[k], width, range.fromMinute),
      }).toEqual({ ...label, values: valuesOf(metric, fromMinutes[k], width, range.fromMinute) });
      compared += fromMinutes[k].length;
    }
    // Not a comparison of nothing: most windows have most groups.
    expect(compared).toBeGreaterThan(200);
    // No minutes leave the database.
    expect(withMinutes).toBe(0);
  });

  it('should give the groups of some volume only, as the minutes read gives them', async () => {
    const reads: SeriesRead[] = ['REQUESTS', 'LATENCY_P95_MS', 'USER_DISTINCT'].flatMap((m) =>
      ranges.map((range) => ({
        metric: m as MonitorMetric,
        range,
        statistics: statisticsOf(m as MonitorMetric),
      })),
    );
    // Each read wants the groups with 20 samples in the next read's window (a CHANGE's pairing).
    const wanted = reads.map((_read, k) => [{ read: (k + 1) % reads.length, minSamples: 20 }]);
    const [inDatabase, fromMinutes] = await database.inTenant(tenantId, async (tx) => [
      await sut.windowValuesOver(tx, tenantId, groupBy, reads, wanted),
      await sut.seriesOver(tx, tenantId, groupBy, reads, wanted),
    ]);
    const groupsOf = (list: GroupSeries[][]): string[][] =>
      list.map((series) => series.map((s) => s.group).sort());
    expect(groupsOf(inDatabase)).toEqual(groupsOf(fromMinutes));
    expect(groupsOf(inDatabase).flat().length).toBeGreaterThan(5);
    expect(groupsOf(inDatabase).flat().length).toBeLessThan(
      groupsOf(
        await database.inTenant(tenantId, (tx) => sut.seriesOver(tx, tenantId, groupBy, reads)),
      ).flat().length,
    );
  });

  it('should take the nearest rank among the zero minutes of a count (M21), counted by hand', async () => {
    const range = { fromMinute: start + 200, toMinute: start + 210 };
    const [series] = await database.inTenant(tenantId, (tx) =>
      sut.windowValuesOver(tx, tenantId, groupBy, [
        { metric: 'REQUESTS', range, statistics: ['P50', 'P95', 'MIN', 'MAX'] },
      ]),
    );
    const cells: Array<{ key: string; minute: number; requests: number }> = await database.inTenant(
      tenantId,
      (tx) =>
        tx.query(
          `SELECT group_key AS key, minute, requests FROM audit.monitor_series
           WHERE tenant_id = $1 AND minute >= $2 AND minute < $3 AND requests > 0`,
          [tenantId, range.fromMinute, range.toMinute],
        ),
    );
    expect(series.length).toBeGreaterThan(0);
    for (const { group, values } of series) {
      // Ten minutes: the 10 − n empty ones are zeros; rank ⌈0.5·10⌉ = 5 and ⌈0.95·10⌉ = 10.
      const counts = cells.filter((c) => c.key === group).map((c) => c.requests);
      const sorted = [...new Array<number>(10 - counts.length).fill(0), ...counts].sort(
        (x, y) => x - y,
      );
      expect({ group, values }).toEqual({
        group,
        values: { P50: sorted[4], P95: sorted[9], MIN: sorted[0], MAX: sorted[9] },
      });
    }
  });
});
