import { Aggregation, MonitorMetric } from '@agp/contracts';

/** M21: how a metric's per-minute value is made, which decides the aggregations it takes. */
export type MetricKind = 'COUNT' | 'RATIO' | 'LATENCY' | 'DISTINCT';

export const METRIC_KIND: Readonly<Record<MonitorMetric, MetricKind>> = {
  REQUESTS: 'COUNT',
  BLOCKS: 'COUNT',
  WARNS: 'COUNT',
  MASKS: 'COUNT',
  HITL_HOLDS: 'COUNT',
  ERRORS: 'COUNT',
  ERROR_RATE_PCT: 'RATIO',
  LATENCY_AVG_MS: 'LATENCY',
  LATENCY_P50_MS: 'LATENCY',
  LATENCY_P95_MS: 'LATENCY',
  LATENCY_P99_MS: 'LATENCY',
  LLM_CALLS: 'COUNT',
  LLM_FAILOVERS: 'COUNT',
  TOOL_CALLS: 'COUNT',
  MCP_REQUESTS: 'COUNT',
  USER_DISTINCT: 'DISTINCT',
  AGENT_DISTINCT: 'DISTINCT',
};

const OVER_MINUTES: readonly Aggregation[] = ['AVG', 'MIN', 'MAX', 'P50', 'P95', 'P99'];

/** M21: the aggregations each kind of metric takes; any other pair is a 400 naming `aggregation`. */
export const AGGREGATIONS_OF: Readonly<Record<MetricKind, readonly Aggregation[]>> = {
  COUNT: ['SUM', 'COUNT', 'RATE_PER_MIN', ...OVER_MINUTES],
  RATIO: ['COUNT', ...OVER_MINUTES],
  LATENCY: ['COUNT', ...OVER_MINUTES],
  DISTINCT: ['SUM', 'COUNT', 'COUNT_DISTINCT', ...OVER_MINUTES],
};

export function aggregationAllowed(metric: MonitorMetric, aggregation: Aggregation): boolean {
  return AGGREGATIONS_OF[METRIC_KIND[metric]].includes(aggregation);
}

/** One group's minutes inside a window: the metric's value in each minute that has one. */
export interface GroupSeries {
  group: string;
  /** Minute (epoch minutes) → value: a count, a percentage, a latency statistic, a distinct count. */
  minutes: Map<number, number>;
  /** Events behind the values (requests for a ratio, latency samples, events for a count). */
  samples: number;
  distinct?: number;
  // A count's window total when it was read without its minutes (M26: from the rollups, for the
  // aggregations that need nothing more); `minutes` is then empty.
  total?: number;
  // M44: the window's statistics over minutes (AVG, MIN, MAX, percentiles) computed in the
  // database; `minutes` is then empty and `aggregate` answers these as they are.
  values?: Partial<Record<Aggregation, number>>;
}

/** Nearest-rank percentile (M21): the value at rank ceil(p·n) of the sorted values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}

/** Nearest rank among `zeros` zeros and `values` (all ≥ 0), without writing the zeros out. */
function percentileWithZeros(values: readonly number[], zeros: number, p: number): number {
  const rank = Math.max(1, Math.ceil(p * (zeros + values.length)));
  if (rank <= zeros) {
    return 0;
  }
  const sorted = Float64Array.from(values).sort();
  return sorted[rank - zeros - 1];
}

/** M21: the window value of one group. */
export function aggregate(
  metric: MonitorMetric,
  aggregation: Aggregation,
  series: GroupSeries,
  windowMinutes: number,
  windowStartMinute: number,
): number | undefined {
  const given = series.values?.[aggregation];
  if (given !== undefined) {
    return given;
  }
  const kind = METRIC_KIND[metric];
  const values = [...series.minutes.values()];
  // A count is zero in every minute without events (counted here, not written out).
  const zeros =
    kind === 'COUNT' || kind === 'DISTINCT' ? Math.max(0, windowMinutes - values.length) : 0;
  const total =
    series.total ??
    [...series.minutes.entries()]
      .filter(
        ([minute]) => minute >= windowStartMinute && minute < windowStartMinute + windowMinutes,
      )
      .reduce((sum, [, n]) => sum + n, 0);
  if (aggregation === 'AVG' && kind === 'COUNT') {
    // Every minute of the window counts, 0 where nothing happened: the mean is total / minutes.
    return total / windowMinutes;
  }
  switch (aggregation) {
    case 'SUM':
      return kind === 'DISTINCT' ? (series.distinct ?? 0) : total;
    case 'COUNT':
      return kind === 'COUNT'
        ? total
        : kind === 'DISTINCT'
          ? (series.distinct ?? 0)
          : series.samples;
    case 'COUNT_DISTINCT':
      return series.distinct ?? 0;
    case 'RATE_PER_MIN':
      return total / windowMinutes;
    case 'AVG':
    case 'MIN':
    case 'MAX':
    case 'P50':
    case 'P95':
    case 'P99':
      break;
  }
  if (values.length + zeros === 0) {
    return undefined;
  }
  if (values.length === 0) {
    // Only empty minutes: every statistic of them is 0.
    return 0;
  }
  switch (aggregation) {
    case 'AVG':
      return values.reduce((sum, v) => sum + v, 0) / (values.length + zeros);
    case 'MIN':
      return zeros > 0 ? Math.min(0, ...values) : Math.min(...values);
    case 'MAX':
      return zeros > 0 ? Math.max(0, ...values) : Math.max(...values);
    case 'P50':
      return percentileWithZeros(values, zeros, 0.5);
    case 'P95':
      return percentileWithZeros(values, zeros, 0.95);
    case 'P99':
      return percentileWithZeros(values, zeros, 0.99);
  }
}

/** M44: what the database gives of one group's minutes with samples in a window. */
export interface MinutesSummary {
  n: number;
  lo: number;
  hi: number;
  /** The values' sum, added in the minutes' order (a float sum depends on its order). */
  sum: number;
  // Per percentile asked, the value at its rank among the n values (the zeros of a count left out:
  // rank ⌈p·width⌉ − zeros), or null when the rank falls among the zeros.
  ranked: Partial<Record<Aggregation, number | null>>;
}

export const PERCENTILE_OF: Partial<Record<Aggregation, number>> = {
  P50: 0.5,
  P95: 0.95,
  P99: 0.99,
};

// M44: a statistic over minutes (AVG, MIN, MAX, P50, P95, P99) from the minutes' summary, exactly
// as `aggregate` computes it from the minutes themselves (M21): a count and a distinct count are 0
// in the window's other minutes, a ratio or latency has only the minutes with samples.
export function statisticOfSummary(
  metric: MonitorMetric,
  aggregation: Aggregation,
  windowMinutes: number,
  { n, lo, hi, sum, ranked }: MinutesSummary,
): number | undefined {
  const kind = METRIC_KIND[metric];
  const zeros = kind === 'COUNT' || kind === 'DISTINCT' ? Math.max(0, windowMinutes - n) : 0;
  if (n === 0) {
    return zeros > 0 ? 0 : undefined;
  }
  if (aggregation === 'AVG') {
    return kind === 'COUNT' ? sum / windowMinutes : sum / (n + zeros);
  }
  if (aggregation === 'MIN') {
    return zeros > 0 ? Math.min(0, lo) : lo;
  }
  if (aggregation === 'MAX') {
    return zeros > 0 ? Math.max(0, hi) : hi;
  }
  const p = PERCENTILE_OF[aggregation];
  if (p === undefined) {
    // SUM, COUNT, RATE_PER_MIN and COUNT_DISTINCT take no minutes (M36).
    return undefined;
  }
  // Nearest rank among the zeros (first: every value is ≥ 0) and the n values.
  const rank = Math.max(1, Math.ceil(p * (zeros + n)));
  return rank <= zeros ? 0 : (ranked[aggregation] ?? undefined);
}
