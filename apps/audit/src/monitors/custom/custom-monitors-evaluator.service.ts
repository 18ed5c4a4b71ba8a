import { Inject, Injectable } from '@nestjs/common';
import { TimeWindow, WINDOW_MINUTES } from '@agp/contracts';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { EVALUATION_DELAY_MINUTES } from '../tick/detector-evaluator.service';
import { Finding } from '../engine/monitors.types';
import { MONITORS_OPTIONS, MonitorsOptions } from '../monitors.options';
import { CustomMonitorsRepository } from './custom-monitors.repository';
import { GroupSeries } from '../engine/custom/metric-semantics';
import { MonitorDefinition } from '../engine/custom/monitor-definition';
import { comparisonOffsetMinutes, evaluateMonitor } from '../engine/custom/monitor-evaluation';
import { MetricReadPlan, ReadBatch, rangeKey } from './metric-read-plan';
import { MetricSeriesRepository } from './metric-series.repository';
import { RollupSeriesRepository } from './rollup-series.repository';

const MINUTE_MS = 60_000;

/** M21: how often a monitor of each window is evaluated (a week's window moves little in a minute). */
export const CADENCE_MINUTES: Readonly<Record<TimeWindow, number>> = {
  LAST_5M: 1,
  LAST_15M: 1,
  LAST_1H: 5,
  LAST_4H: 15,
  LAST_24H: 60,
  LAST_7D: 60,
};

export function isDue(monitor: MonitorDefinition, tick: Date): boolean {
  return (
    !monitor.lastEvaluatedAt ||
    tick.getTime() - monitor.lastEvaluatedAt.getTime() >=
      CADENCE_MINUTES[monitor.window] * MINUTE_MS
  );
}

/** One tenant's custom monitors at one tick: those due, their reads batched (M27). */
@Injectable()
export class CustomMonitorsEvaluatorService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(MONITORS_OPTIONS) private readonly options: MonitorsOptions,
    private readonly monitors: CustomMonitorsRepository,
    private readonly rollups: RollupSeriesRepository,
    private readonly series: MetricSeriesRepository,
  ) {}

  async evaluate(
    tenantId: string,
    tick: Date,
  ): Promise<{ findings: Finding[]; evaluated: string[] }> {
    const source = this.options.customMetricSource ?? 'SERIES';
    const [enabled, seriesStart] = await this.database.inTenant(
      tenantId,
      async (tx): Promise<[MonitorDefinition[], number]> => [
        await this.monitors.enabledOf(tx, tenantId),
        source === 'SERIES' ? await this.series.startMinute(tx) : 0,
      ],
    );
    const due = enabled.filter((monitor) => isDue(monitor, tick));
    if (due.length === 0) {
      return { findings: [], evaluated: [] };
    }
    const endMinute = Math.floor(tick.getTime() / MINUTE_MS) - EVALUATION_DELAY_MINUTES;
    const plan = new MetricReadPlan(source === 'EVENTS', source === 'SERIES', seriesStart);
    const windows = due.map((monitor) => {
      const startMinute = endMinute - WINDOW_MINUTES[monitor.window];
      const current = plan.need(monitor, startMinute);
      const previous =
        monitor.monitorType === 'CHANGE'
          ? plan.need(monitor, startMinute - comparisonOffsetMinutes(monitor.window))
          : undefined;
      return { monitor, startMinute, current, previous };
    });
    // M29: which groups each read must give, as its monitors judge only groups of minVolume.
    const judging = new Map<string, Array<{ key: string; minSamples: number }>>();
    for (const { monitor, current, previous } of windows) {
      for (const key of previous ? [current, previous] : [current]) {
        const list = judging.get(key) ?? [];
        list.push({ key: current, minSamples: monitor.minVolume });
        judging.set(key, list);
      }
    }
    const series = await this.readAll(tenantId, plan, judging);
    const findings: Finding[] = [];
    for (const { monitor, startMinute, current: currentKey, previous: previousKey } of windows) {
      const current = [...(series.get(currentKey) ?? [])];
      if (monitor.groupBy === 'NONE' && current.length === 0) {
        current.push({ group: tenantId, minutes: new Map(), samples: 0 });
      }
      const previous = previousKey
        ? new Map((series.get(previousKey) ?? []).map((s) => [s.group, s]))
        : undefined;
      findings.push(
        ...evaluateMonitor(monitor, { tenantId, tick, startMinute, current, previous }),
      );
    }
    const evaluated = due.map((monitor) => monitor.id);
    await this.database.inTenant(tenantId, (tx) =>
      this.monitors.markEvaluated(tx, tenantId, evaluated, tick),
    );
    return { findings, evaluated };
  }

  /** Every batch of the plan in a short transaction of its own, two at a time. */
  private async readAll(
    tenantId: string,
    plan: MetricReadPlan,
    judging: ReadonlyMap<string, ReadonlyArray<{ key: string; minSamples: number }>>,
  ): Promise<Map<string, GroupSeries[]>> {
    const series = new Map<string, GroupSeries[]>();
    const batches = plan.batches();
    const next = async (): Promise<void> => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        const read = batch;
        const answers = await this.database.inTenant(tenantId, (tx) =>
          this.readBatch(tx, tenantId, read, judging),
        );
        read.reads.forEach((r, i) => series.set(r.key, answers[i]));
      }
    };
    await Promise.all([next(), next()]);
    return series;
  }

  private async readBatch(
    tx: Tx,
    tenantId: string,
    batch: ReadBatch,
    judging: ReadonlyMap<string, ReadonlyArray<{ key: string; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    const ranges = batch.reads.map((r) => r.range);
    switch (batch.kind) {
      case 'totals':
        return this.rollups.totalsOver(tx, tenantId, batch.source, ranges);
      case 'minutes':
        return this.rollups.minutesOver(tx, tenantId, batch.source, ranges);
      case 'series': {
        const index = new Map(batch.reads.map((r, i) => [r.key, i]));
        const wanted = batch.reads.map((r) =>
          (judging.get(r.key) ?? []).map(({ key, minSamples }) => ({
            // A monitor whose current window is read elsewhere (before the cells began) needs all.
            read: index.get(key) ?? -1,
            minSamples: index.has(key) ? minSamples : 0,
          })),
        );
        // M44: each read's window values computed in the database, no minutes fetched.
        return this.series.windowValuesOver(tx, tenantId, batch.groupBy, batch.reads, wanted);
      }
      case 'events': {
        const metrics = [...new Set(batch.reads.map((r) => r.metric))];
        const spans = [...new Map(batch.reads.map((r) => [rangeKey(r.range), r.range])).values()];
        const answers = await this.monitors.minuteSeriesOver(
          tx,
          tenantId,
          batch.groupBy,
          metrics,
          spans,
        );
        return batch.reads.map(
          (r) =>
            answers[metrics.indexOf(r.metric)][
              spans.findIndex((s) => rangeKey(s) === rangeKey(r.range))
            ],
        );
      }
      case 'distinct': {
        const [r] = batch.reads;
        return [
          await this.monitors.distinctSeries(
            tx,
            tenantId,
            r.metric,
            batch.groupBy,
            new Date(r.range.fromMinute * MINUTE_MS),
            new Date(r.range.toMinute * MINUTE_MS),
          ),
        ];
      }
    }
  }
}
