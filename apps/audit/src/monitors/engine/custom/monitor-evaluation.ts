import { SubjectType, WINDOW_MINUTES } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { CUSTOM_MONITOR, Finding } from '../monitors.types';
import { GroupSeries, aggregate } from './metric-semantics';
import { MonitorDefinition } from './monitor-definition';
import { leaveOneOutSpreads } from './robust-spread';

/** M21: a CHANGE monitor compares its window with the same window this long before. */
export function comparisonOffsetMinutes(window: MonitorDefinition['window']): number {
  return window === 'LAST_7D' ? 7 * 1_440 : 1_440;
}

export const MIN_PEERS = 3;

export interface MonitorWindows {
  tenantId: string;
  tick: Date;
  /** Epoch minute of the window's first minute (the window ends at the tick's evaluation delay). */
  startMinute: number;
  current: GroupSeries[];
  previous?: Map<string, GroupSeries>;
}

interface Judged {
  group: string;
  observed: number;
  comparison?: number;
}

function round(value: number): number {
  return Math.round(value * 1_000) / 1_000;
}

export function evaluateMonitor(monitor: MonitorDefinition, windows: MonitorWindows): Finding[] {
  const minutes = WINDOW_MINUTES[monitor.window];
  const valueOf = (series: GroupSeries, start: number): number | undefined =>
    aggregate(monitor.metric, monitor.aggregation, series, minutes, start);
  const judged: Judged[] = [];
  for (const series of windows.current) {
    if (series.samples < monitor.minVolume) {
      continue;
    }
    const observed = valueOf(series, windows.startMinute);
    if (observed === undefined) {
      continue;
    }
    const previous = windows.previous?.get(series.group);
    const comparison =
      monitor.monitorType === 'CHANGE'
        ? previous
          ? (valueOf(previous, windows.startMinute - comparisonOffsetMinutes(monitor.window)) ?? 0)
          : 0
        : undefined;
    judged.push({ group: series.group, observed, comparison });
  }
  const above = monitor.comparison === 'ABOVE';
  const crossing: Array<Judged & { score: number }> = [];
  switch (monitor.monitorType) {
    case 'THRESHOLD':
      for (const item of judged) {
        if (above ? item.observed > monitor.threshold : item.observed < monitor.threshold) {
          crossing.push({ ...item, score: item.observed });
        }
      }
      break;
    case 'CHANGE':
      for (const item of judged) {
        const base = item.comparison ?? 0;
        if (base === 0) {
          // A change from nothing has no percentage: it counts once minVolume events are seen.
          if (above && monitor.minVolume > 0 && item.observed >= monitor.minVolume) {
            crossing.push({ ...item, score: item.observed });
          }
          continue;
        }
        const changePct = ((item.observed - base) / base) * 100;
        if (above ? changePct >= monitor.threshold : changePct <= -monitor.threshold) {
          crossing.push({ ...item, score: changePct });
        }
      }
      break;
    case 'OUTLIER': {
      if (judged.length < MIN_PEERS) {
        break;
      }
      // Each group against all the others (thousands of agents: one sort per spread, not per group).
      const spreads = leaveOneOutSpreads(judged.map((item) => item.observed));
      for (const [index, item] of judged.entries()) {
        const { median, scale } = spreads[index];
        const z = scale > 0 ? (item.observed - median) / scale : 0;
        if (above ? z >= monitor.threshold : z <= -monitor.threshold) {
          crossing.push({ ...item, comparison: median, score: z });
        }
      }
      break;
    }
  }
  return crossing.map((item) => toFinding(monitor, windows, item));
}

function toFinding(
  monitor: MonitorDefinition,
  windows: MonitorWindows,
  item: Judged & { score: number },
): Finding {
  const subject =
    monitor.groupBy === 'NONE'
      ? { type: 'TENANT' as SubjectType, id: windows.tenantId }
      : { type: monitor.groupBy as SubjectType, id: item.group };
  const what = `${monitor.aggregation} of ${monitor.metric} over ${monitor.window}`;
  const compared =
    monitor.monitorType === 'THRESHOLD'
      ? `${monitor.comparison === 'ABOVE' ? 'above' : 'below'} ${monitor.threshold}`
      : monitor.monitorType === 'CHANGE'
        ? `${round(item.score)} % against ${round(item.comparison ?? 0)} earlier`
        : `z ${round(item.score)} from the peers' median ${round(item.comparison ?? 0)}`;
  return {
    findingId: deterministicUuid(
      windows.tenantId,
      monitor.id,
      item.group,
      String(windows.startMinute),
    ),
    detector: CUSTOM_MONITOR,
    monitorId: monitor.id,
    severity: monitor.severity,
    direction: monitor.comparison === 'ABOVE' ? 'SPIKE' : 'DROP',
    subject,
    summary: `${monitor.name}: ${what} is ${round(item.observed)}, ${compared}`,
    detectedAt: windows.tick,
    evidence: {
      kind: 'CUSTOM_QUERY',
      monitorType: monitor.monitorType,
      metric: monitor.metric,
      aggregation: monitor.aggregation,
      window: monitor.window,
      groupBy: monitor.groupBy,
      observedValue: round(item.observed),
      ...(item.comparison !== undefined ? { comparisonValue: round(item.comparison) } : {}),
      threshold: monitor.threshold,
      subjectLabel: monitor.groupBy === 'NONE' ? 'tenant' : `${monitor.groupBy} ${item.group}`,
    },
  };
}
