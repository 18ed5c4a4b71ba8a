import { Aggregation, GroupBy, MonitorMetric, WINDOW_MINUTES } from '@agp/contracts';

import { METRIC_KIND } from '../engine/custom/metric-semantics';
import { MonitorDefinition } from '../engine/custom/monitor-definition';
import { RollupSource, needsMinutes, rollupSourceOf } from '../engine/custom/rollup-source';
import { MinuteRange } from './rollup-series.repository';

/** One metric of one grouping over one window: what a monitor (or its CHANGE comparison) reads. */
export interface MetricRead {
  key: string;
  metric: MonitorMetric;
  groupBy: GroupBy;
  range: MinuteRange;
  /** M36 (cells only): false when no monitor reading it needs its per-minute values. */
  minutes?: boolean;
  // M44 (cells only): the statistics over minutes (AVG, MIN, MAX, percentiles) its monitors take,
  // each once; the database computes them per group and window.
  statistics?: Aggregation[];
}

/** M27: reads answered by one statement (M26, M29). */
export type ReadBatch =
  | { kind: 'totals' | 'minutes'; source: RollupSource; reads: MetricRead[] }
  | { kind: 'events' | 'distinct' | 'series'; groupBy: GroupBy; reads: MetricRead[] };

export function rangeKey(range: MinuteRange): string {
  return `${range.fromMinute}-${range.toMinute}`;
}

/** The reads a tick's due monitors need, each once, grouped into batches. */
export class MetricReadPlan {
  private readonly byBatch = new Map<string, ReadBatch>();
  private readonly known = new Set<string>();

  /** `eventsOnly`: `customMetricSource = 'EVENTS'`, every metric from the events (M26, M29). */
  constructor(
    private readonly eventsOnly = false,
    private readonly fromSeries = false,
    private readonly seriesStartMinute = 0,
  ) {}

  /** Adds the read of `monitor`'s metric over its window from `startMinute`; answers its key. */
  need(monitor: MonitorDefinition, startMinute: number): string {
    const { metric, groupBy } = monitor;
    const range = {
      fromMinute: startMinute,
      toMinute: startMinute + WINDOW_MINUTES[monitor.window],
    };
    if (this.fromSeries && !this.eventsOnly && range.fromMinute >= this.seriesStartMinute) {
      const key = `${metric}|${groupBy}|${rangeKey(range)}|series`;
      const minutes = needsMinuteValues(monitor);
      const statistics = minutes ? [monitor.aggregation] : [];
      return this.add(
        `series|${groupBy}`,
        { key, metric, groupBy, range, minutes, statistics },
        'series',
      );
    }
    // M26: a count the rollups hold exactly is read from them, the rest from the events.
    const source = this.eventsOnly ? undefined : rollupSourceOf(metric, groupBy);
    const kind = source
      ? needsMinutes(monitor.aggregation)
        ? 'minutes'
        : 'totals'
      : METRIC_KIND[metric] === 'DISTINCT'
        ? 'distinct'
        : 'events';
    const key = `${metric}|${groupBy}|${rangeKey(range)}|${kind}`;
    if (this.known.has(key)) {
      return key;
    }
    this.known.add(key);
    const read: MetricRead = { key, metric, groupBy, range };
    const batchKey = source
      ? `${kind}|${source.subjectType}|${source.metric}`
      : kind === 'events'
        ? `events|${groupBy}`
        : key;
    const batch = this.byBatch.get(batchKey);
    if (batch) {
      batch.reads.push(read);
    } else if (source) {
      this.byBatch.set(batchKey, { kind: kind as 'totals' | 'minutes', source, reads: [read] });
    } else {
      this.byBatch.set(batchKey, { kind: kind as 'events' | 'distinct', groupBy, reads: [read] });
    }
    return key;
  }

  private add(batchKey: string, read: MetricRead, kind: 'series'): string {
    const batch = this.byBatch.get(batchKey);
    const known = batch?.reads.find((r) => r.key === read.key);
    if (known) {
      // M36: one monitor that needs the minutes is enough for the read to give them.
      known.minutes = known.minutes === true || read.minutes === true;
      known.statistics = [...new Set([...(known.statistics ?? []), ...(read.statistics ?? [])])];
    } else if (batch) {
      this.known.add(read.key);
      batch.reads.push(read);
    } else {
      this.known.add(read.key);
      this.byBatch.set(batchKey, { kind, groupBy: read.groupBy, reads: [read] });
    }
    return read.key;
  }

  /** The batches, the largest first (two run at a time: the long ones should not come last). */
  batches(): ReadBatch[] {
    return [...this.byBatch.values()].sort((a, b) => b.reads.length - a.reads.length);
  }
}

// M36: whether a monitor's window value needs the metric's per-minute values (M21): a count's sum,
// count, rate and mean need its total only, any other metric's COUNT its samples only, a distinct
// metric's SUM, COUNT and COUNT_DISTINCT its window's distinct ids only.
export function needsMinuteValues(
  monitor: Pick<MonitorDefinition, 'metric' | 'aggregation'>,
): boolean {
  const kind = METRIC_KIND[monitor.metric];
  if (kind === 'COUNT') {
    return needsMinutes(monitor.aggregation);
  }
  if (kind === 'DISTINCT') {
    return !['SUM', 'COUNT', 'COUNT_DISTINCT'].includes(monitor.aggregation);
  }
  return monitor.aggregation !== 'COUNT';
}
