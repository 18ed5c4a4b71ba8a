import { WINDOW_MINUTES } from '@agp/contracts';

import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import { isDue } from '../src/monitors/custom/custom-monitors-evaluator.service';
import { GroupSeries } from '../src/monitors/engine/custom/metric-semantics';
import { MonitorDefinition } from '../src/monitors/engine/custom/monitor-definition';
import {
  comparisonOffsetMinutes,
  evaluateMonitor,
} from '../src/monitors/engine/custom/monitor-evaluation';
import { RollupSeriesRepository } from '../src/monitors/custom/rollup-series.repository';
import { needsMinutes, rollupSourceOf } from '../src/monitors/engine/custom/rollup-source';
import { EVALUATION_DELAY_MINUTES } from '../src/monitors/tick/detector-evaluator.service';
import { Finding } from '../src/monitors/engine/monitors.types';
import { MonitorsBench } from './monitors-bench-app';

const MINUTE_MS = 60_000;

/**
 * The baseline of M27: the custom monitors' evaluation as it was before, one read per metric,
 * grouping, window and shape, one after the other (rollups where they hold, M26). It reads through
 * the same repository methods a single window at a time and judges with the same code, so its
 * findings must equal the batched evaluation's.
 */
export async function evaluatePerMonitor(
  bench: MonitorsBench,
  tenantId: string,
  tick: Date,
): Promise<Finding[]> {
  const repository = bench.app.get(CustomMonitorsRepository);
  const rollups = bench.app.get(RollupSeriesRepository);
  const enabled = await bench.database.inTenant(tenantId, (tx) =>
    repository.enabledOf(tx, tenantId),
  );
  const endMinute = Math.floor(tick.getTime() / MINUTE_MS) - EVALUATION_DELAY_MINUTES;
  const reads = new Map<string, GroupSeries[]>();
  const read = async (monitor: MonitorDefinition, startMinute: number): Promise<GroupSeries[]> => {
    const source = rollupSourceOf(monitor.metric, monitor.groupBy);
    const shape = source ? (needsMinutes(monitor.aggregation) ? 'minutes' : 'totals') : 'events';
    const key = `${monitor.metric}|${monitor.groupBy}|${monitor.window}|${startMinute}|${shape}`;
    const from = new Date(startMinute * MINUTE_MS);
    const to = new Date((startMinute + WINDOW_MINUTES[monitor.window]) * MINUTE_MS);
    const series =
      reads.get(key) ??
      (await bench.database.inTenant(tenantId, (tx) =>
        !source
          ? repository.minuteSeries(tx, tenantId, monitor.metric, monitor.groupBy, from, to)
          : shape === 'totals'
            ? rollups.totals(tx, tenantId, source, from, to)
            : rollups.minutes(tx, tenantId, source, from, to),
      ));
    reads.set(key, series);
    return series;
  };
  const findings: Finding[] = [];
  for (const monitor of enabled.filter((m) => isDue(m, tick))) {
    const startMinute = endMinute - WINDOW_MINUTES[monitor.window];
    const current = [...(await read(monitor, startMinute))];
    if (monitor.groupBy === 'NONE' && current.length === 0) {
      current.push({ group: tenantId, minutes: new Map(), samples: 0 });
    }
    const previous =
      monitor.monitorType === 'CHANGE'
        ? new Map(
            (await read(monitor, startMinute - comparisonOffsetMinutes(monitor.window))).map(
              (s) => [s.group, s],
            ),
          )
        : undefined;
    findings.push(...evaluateMonitor(monitor, { tenantId, tick, startMinute, current, previous }));
  }
  return findings;
}
