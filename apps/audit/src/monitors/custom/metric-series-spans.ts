import { Aggregation, GroupBy, MonitorMetric } from '@agp/contracts';

import { SeriesRow, samplesOf } from '../engine/custom/metric-series';
import { MinuteRange } from './rollup-series.repository';

export interface SeriesRead {
  metric: MonitorMetric;
  range: MinuteRange;
  // M36: false when the read's monitors need no per-minute values: each group then comes with its
  // samples, a count's `total` and a distinct metric's `distinct`, and no minutes.
  minutes?: boolean;
  // M44 (`windowValuesOver`): the statistics over minutes (AVG, MIN, MAX, P50, P95, P99) its
  // monitors take, computed in the database.
  statistics?: readonly Aggregation[];
}

export function samplesByGroup(rows: readonly SeriesRow[], read: SeriesRead): Map<string, number> {
  const byGroup = new Map<string, number>();
  for (let i = firstAtOrAfter(rows, read.range.fromMinute); i < rows.length; i += 1) {
    const row = rows[i];
    if (row.minute >= read.range.toMinute) {
      break;
    }
    byGroup.set(row.key, (byGroup.get(row.key) ?? 0) + samplesOf(read.metric, row));
  }
  return byGroup;
}

export function firstAtOrAfter(rows: readonly SeriesRow[], minute: number): number {
  let [lo, hi] = [0, rows.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].minute < minute) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The condition on `minute` for the reads' span (`$1` the tenant, `$2` the grouping, then each
// disjoint span's bounds) and its parameters.
export function spansOf(
  tenantId: string,
  groupBy: GroupBy,
  reads: readonly SeriesRead[],
): { inSpans: string; params: unknown[] } {
  const spans = mergedSpans(reads.map((read) => read.range));
  return {
    inSpans: spans
      .map((_s, i) => `(minute >= $${2 * i + 3} AND minute < $${2 * i + 4})`)
      .join(' OR '),
    params: [tenantId, groupBy, ...spans.flatMap((span) => [span.fromMinute, span.toMinute])],
  };
}

/** The ranges' union as disjoint spans, so a read takes no cell twice and none between them. */
export function mergedSpans(ranges: readonly MinuteRange[]): MinuteRange[] {
  const sorted = [...ranges].sort((a, b) => a.fromMinute - b.fromMinute);
  const spans: MinuteRange[] = [];
  for (const range of sorted) {
    const last = spans[spans.length - 1];
    if (last && range.fromMinute <= last.toMinute) {
      last.toMinute = Math.max(last.toMinute, range.toMinute);
    } else {
      spans.push({ ...range });
    }
  }
  return spans;
}
