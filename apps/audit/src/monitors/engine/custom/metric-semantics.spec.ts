import { Aggregation, MonitorMetric } from '@agp/contracts';

import {
  GroupSeries,
  METRIC_KIND,
  MinutesSummary,
  PERCENTILE_OF,
  aggregate,
  statisticOfSummary,
} from './metric-semantics';

const STATISTICS: readonly Aggregation[] = ['AVG', 'MIN', 'MAX', 'P50', 'P95', 'P99'];
const METRICS: readonly MonitorMetric[] = [
  'REQUESTS',
  'ERROR_RATE_PCT',
  'LATENCY_P95_MS',
  'USER_DISTINCT',
];

/**
 * What the database gives of the minutes (M44), computed here from the minutes themselves: the
 * value at each percentile's rank taken from the sorted values with the count's zeros first.
 */
function summaryOf(metric: MonitorMetric, values: number[], width: number): MinutesSummary {
  const n = values.length;
  const zeroFilled = ['COUNT', 'DISTINCT'].includes(METRIC_KIND[metric]);
  const sorted = [...values].sort((a, b) => a - b);
  const ranked: MinutesSummary['ranked'] = {};
  for (const [aggregation, p] of Object.entries(PERCENTILE_OF)) {
    const rank = zeroFilled
      ? Math.max(1, Math.ceil(p * width)) - width + n
      : Math.max(1, Math.ceil(p * n));
    ranked[aggregation as Aggregation] = rank >= 1 ? sorted[rank - 1] : null;
  }
  return {
    n,
    lo: Math.min(...values),
    hi: Math.max(...values),
    sum: values.reduce((s, v) => s + v, 0),
    ranked,
  };
}

describe(statisticOfSummary.name, () => {
  it('should give every statistic over minutes that aggregate gives from the minutes', () => {
    let seed = 11;
    const random = (): number => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    let compared = 0;
    for (let round = 0; round < 300; round += 1) {
      const metric = METRICS[round % METRICS.length];
      const width = [5, 15, 60][round % 3];
      const isCount = ['COUNT', 'DISTINCT'].includes(METRIC_KIND[metric]);
      // From one minute to every minute of the window busy (no zeros left).
      const busy = 1 + Math.floor(random() * width);
      const minutes = new Map<number, number>();
      for (let minute = 0; minute < width && minutes.size < busy; minute += 1) {
        if (random() < 0.7) {
          minutes.set(minute, isCount ? 1 + Math.floor(random() * 9) : random() * 500);
        }
      }
      if (minutes.size === 0) {
        continue;
      }
      const series: GroupSeries = { group: 'g', minutes, samples: minutes.size };
      const summary = summaryOf(metric, [...minutes.values()], width);
      for (const aggregation of STATISTICS) {
        const label = { round, metric, aggregation, width, n: minutes.size };
        expect({
          ...label,
          value: statisticOfSummary(metric, aggregation, width, summary),
        }).toEqual({ ...label, value: aggregate(metric, aggregation, series, width, 0) });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });

  it('should answer a percentile whose rank falls among a count’s zero minutes with 0', () => {
    // Ten minutes, two of them busy: the median is among the eight zeros.
    const summary = summaryOf('REQUESTS', [4, 9], 10);
    expect(statisticOfSummary('REQUESTS', 'P50', 10, summary)).toBe(0);
    expect(statisticOfSummary('REQUESTS', 'P95', 10, summary)).toBe(9);
    expect(statisticOfSummary('REQUESTS', 'MIN', 10, summary)).toBe(0);
    expect(statisticOfSummary('REQUESTS', 'AVG', 10, summary)).toBe(1.3);
  });
});
