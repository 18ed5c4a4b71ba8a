import {
  Aggregation,
  GroupBy,
  MonitorMetric,
  MonitorType,
  Severity,
  TimeWindow,
} from '@agp/contracts';

export const CUSTOM_MONITOR_TYPES = ['THRESHOLD', 'CHANGE', 'OUTLIER'] as const;
export type CustomMonitorType = (typeof CUSTOM_MONITOR_TYPES)[number];

/** THRESHOLD: above or below the threshold; CHANGE: up or down by threshold %; OUTLIER: z above or below. */
export const COMPARISONS = ['ABOVE', 'BELOW'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** A tenant's custom monitor (issue 17). */
export interface MonitorDefinition {
  id: string;
  name: string;
  description: string | null;
  monitorType: CustomMonitorType;
  metric: MonitorMetric;
  aggregation: Aggregation;
  window: TimeWindow;
  groupBy: GroupBy;
  comparison: Comparison;
  threshold: number;
  /** Groups with fewer samples than this in the window are not judged. */
  minVolume: number;
  severity: Severity;
  enabled: boolean;
  createdByLabel: string;
  updatedByLabel: string;
  lastEvaluatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** How the API answers a monitor, custom or SYSTEM_TEMPLATE (M23). */
export interface MonitorResponse {
  id: string;
  name: string;
  description: string | null;
  monitorType: MonitorType;
  metric: MonitorMetric | null;
  aggregation: Aggregation | null;
  window: TimeWindow | null;
  groupBy: GroupBy | null;
  comparison: Comparison | null;
  threshold: number | null;
  minVolume: number | null;
  severity: Severity | null;
  enabled: boolean;
  /** SYSTEM_TEMPLATE: the built-in detector and its effective settings. */
  detector?: string;
  settings?: Record<string, unknown>;
  lastEvaluatedAt: string | null;
  createdByLabel: string | null;
  updatedByLabel: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

export function toMonitorResponse(monitor: MonitorDefinition): MonitorResponse {
  return {
    id: monitor.id,
    name: monitor.name,
    description: monitor.description,
    monitorType: monitor.monitorType,
    metric: monitor.metric,
    aggregation: monitor.aggregation,
    window: monitor.window,
    groupBy: monitor.groupBy,
    comparison: monitor.comparison,
    threshold: monitor.threshold,
    minVolume: monitor.minVolume,
    severity: monitor.severity,
    enabled: monitor.enabled,
    lastEvaluatedAt: monitor.lastEvaluatedAt?.toISOString() ?? null,
    createdByLabel: monitor.createdByLabel,
    updatedByLabel: monitor.updatedByLabel,
    createdAt: monitor.createdAt.toISOString(),
    updatedAt: monitor.updatedAt.toISOString(),
  };
}
