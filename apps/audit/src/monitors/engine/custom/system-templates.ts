import { Aggregation, Detector, GroupBy, MonitorMetric, TimeWindow } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { ALL_DETECTORS, DetectorSettings, MonitorSettings } from '../detector-settings';
import { MonitorResponse } from './monitor-definition';

interface TemplateQuery {
  metric: MonitorMetric;
  aggregation: Aggregation;
  groupBy: GroupBy;
}

/** Governance detectors watch records, not a metric: their query fields are null (M23). */
const QUERIES: Partial<Record<Detector, TemplateQuery>> = {
  POLICY_INVOCATION_ANOMALY: { metric: 'REQUESTS', aggregation: 'RATE_PER_MIN', groupBy: 'POLICY' },
  POLICY_BLOCK_ANOMALY: { metric: 'BLOCKS', aggregation: 'RATE_PER_MIN', groupBy: 'POLICY' },
  POLICY_WARN_ANOMALY: { metric: 'WARNS', aggregation: 'RATE_PER_MIN', groupBy: 'POLICY' },
  POLICY_HITL_HOLD_ANOMALY: {
    metric: 'HITL_HOLDS',
    aggregation: 'RATE_PER_MIN',
    groupBy: 'POLICY',
  },
  AGENT_VOLUME_ANOMALY: { metric: 'REQUESTS', aggregation: 'RATE_PER_MIN', groupBy: 'AGENT' },
  USER_VOLUME_ANOMALY: { metric: 'REQUESTS', aggregation: 'RATE_PER_MIN', groupBy: 'USER' },
  MCP_SERVER_VOLUME_ANOMALY: {
    metric: 'MCP_REQUESTS',
    aggregation: 'RATE_PER_MIN',
    groupBy: 'MCP_SERVER',
  },
  LLM_GATEWAY_VOLUME_ANOMALY: {
    metric: 'REQUESTS',
    aggregation: 'RATE_PER_MIN',
    groupBy: 'LLM_GATEWAY',
  },
  CHANNEL_VOLUME_ANOMALY: { metric: 'REQUESTS', aggregation: 'RATE_PER_MIN', groupBy: 'CHANNEL' },
  TENANT_ERROR_SPIKE: { metric: 'ERRORS', aggregation: 'RATE_PER_MIN', groupBy: 'NONE' },
  TENANT_WARN_SPIKE: { metric: 'WARNS', aggregation: 'RATE_PER_MIN', groupBy: 'NONE' },
  TENANT_HITL_SPIKE: { metric: 'HITL_HOLDS', aggregation: 'RATE_PER_MIN', groupBy: 'NONE' },
  LLM_PROVIDER_ERROR_RATE_SPIKE: {
    metric: 'ERROR_RATE_PCT',
    aggregation: 'AVG',
    groupBy: 'LLM_PROVIDER',
  },
  LLM_GATEWAY_FAILOVER_SPIKE: {
    metric: 'LLM_FAILOVERS',
    aggregation: 'RATE_PER_MIN',
    groupBy: 'LLM_GATEWAY',
  },
  MCP_SERVER_ERROR_RATE_SPIKE: {
    metric: 'ERROR_RATE_PCT',
    aggregation: 'AVG',
    groupBy: 'MCP_SERVER',
  },
  DORMANT_AGENT_REACTIVATION: { metric: 'REQUESTS', aggregation: 'COUNT', groupBy: 'AGENT' },
  DORMANT_USER_REACTIVATION: { metric: 'REQUESTS', aggregation: 'COUNT', groupBy: 'USER' },
  NOVEL_TOOL_CALL: { metric: 'TOOL_CALLS', aggregation: 'COUNT_DISTINCT', groupBy: 'MCP_SERVER' },
  NEW_MCP_SERVER_BINDING: {
    metric: 'MCP_REQUESTS',
    aggregation: 'COUNT_DISTINCT',
    groupBy: 'AGENT',
  },
};

function windowOf(minutes: number): TimeWindow {
  return minutes <= 5
    ? 'LAST_5M'
    : minutes <= 15
      ? 'LAST_15M'
      : minutes <= 60
        ? 'LAST_1H'
        : 'LAST_4H';
}

/** The stable id of a detector's template: the same in every tenant and every release. */
export function templateId(detector: Detector): string {
  return deterministicUuid('system-template', detector);
}

export function detectorOfTemplate(id: string): Detector | undefined {
  return ALL_DETECTORS.find((detector) => templateId(detector) === id.toLowerCase());
}

export function systemTemplate(detector: Detector, settings: DetectorSettings): MonitorResponse {
  const query = QUERIES[detector];
  return {
    id: templateId(detector),
    name: detector,
    description: `built-in detector ${detector}; its settings change through PUT /audit/v1/monitors/config`,
    monitorType: 'SYSTEM_TEMPLATE',
    metric: query?.metric ?? null,
    aggregation: query?.aggregation ?? null,
    window: query ? windowOf(settings.windowMinutes) : null,
    groupBy: query?.groupBy ?? null,
    comparison: null,
    threshold: null,
    minVolume: query ? settings.minVolume : null,
    severity: null,
    enabled: settings.enabled,
    detector,
    settings: { ...settings },
    lastEvaluatedAt: null,
    createdByLabel: null,
    updatedByLabel: null,
    createdAt: null,
    updatedAt: null,
  };
}

export function systemTemplates(settings: MonitorSettings): MonitorResponse[] {
  return ALL_DETECTORS.map((detector) => systemTemplate(detector, settings.detectors[detector]));
}
