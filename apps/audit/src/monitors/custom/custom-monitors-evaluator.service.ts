import { Inject, Injectable } from '@nestjs/common';
import { TimeWindow, WINDOW_MINUTES } from '@agp/contracts';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { EVALUATION_DELAY_MINUTES } from '../detectors/detector-evaluator.service';
import { Finding } from '../monitors.types';
import { MONITORS_OPTIONS, MonitorsOptions } from '../monitors.options';
import { CustomMonitorsRepository } from './custom-monitors.repository';
import { GroupSeries } from './metric-semantics';
import { MonitorDefinition } from './monitor-definition';
import { comparisonOffsetMinutes, evaluateMonitor } from './monitor-evaluation';
import { RollupSeriesRepository } from './rollup-series.repository';
import { needsMinutes, rollupSourceOf } from './rollup-source';

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

/** One tenant's custom monitors at one tick: those due, with one read per metric, grouping and window. */
@Injectable()
export class CustomMonitorsEvaluatorService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(MONITORS_OPTIONS) private readonly options: MonitorsOptions,
    private readonly monitors: CustomMonitorsRepository,
    private readonly rollups: RollupSeriesRepository,
  ) {}

  async evaluate(
    tenantId: string,
    tick: Date,
  ): Promise<{ findings: Finding[]; evaluated: string[] }> {
    const enabled = await this.database.inTenant(tenantId, (tx) =>
      this.monitors.enabledOf(tx, tenantId),
    );
    const due = enabled.filter((monitor) => isDue(monitor, tick));
    if (due.length === 0) {
      return { findings: [], evaluated: [] };
    }
    const endMinute = Math.floor(tick.getTime() / MINUTE_MS) - EVALUATION_DELAY_MINUTES;
    const reads = new Map<string, Promise<GroupSeries[]>>();
    const read = (monitor: MonitorDefinition, startMinute: number): Promise<GroupSeries[]> => {
      // M26: a count the rollups hold exactly is read from them, the rest from the events.
      const source =
        this.options.customMetricSource === 'EVENTS'
          ? undefined
          : rollupSourceOf(monitor.metric, monitor.groupBy);
      const shape = source ? (needsMinutes(monitor.aggregation) ? 'minutes' : 'totals') : 'events';
      const key = `${monitor.metric}|${monitor.groupBy}|${monitor.window}|${startMinute}|${shape}`;
      let series = reads.get(key);
      if (!series) {
        const from = new Date(startMinute * MINUTE_MS);
        const to = new Date((startMinute + WINDOW_MINUTES[monitor.window]) * MINUTE_MS);
        series = this.database.inTenant(tenantId, (tx) =>
          !source
            ? this.monitors.minuteSeries(tx, tenantId, monitor.metric, monitor.groupBy, from, to)
            : shape === 'totals'
              ? this.rollups.totals(tx, tenantId, source, from, to)
              : this.rollups.minutes(tx, tenantId, source, from, to),
        );
        reads.set(key, series);
      }
      return series;
    };
    const findings: Finding[] = [];
    // One after the other: the embedded PGlite serves one session at a time.
    for (const monitor of due) {
      const startMinute = endMinute - WINDOW_MINUTES[monitor.window];
      const current = [...(await read(monitor, startMinute))];
      if (monitor.groupBy === 'NONE' && current.length === 0) {
        // The tenant as a whole always has a value: nothing happened is 0.
        current.push({ group: tenantId, minutes: new Map(), samples: 0 });
      }
      const previous =
        monitor.monitorType === 'CHANGE'
          ? new Map(
              (await read(monitor, startMinute - comparisonOffsetMinutes(monitor.window))).map(
                (series) => [series.group, series],
              ),
            )
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
}
