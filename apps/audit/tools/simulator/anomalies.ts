import { SubjectType } from '@agp/contracts';

import { TrafficDetector } from '../../src/monitors/engine/detector-settings';
import { RollupMetric } from '../../src/monitors/engine/rollup-counters';

/** What the simulator can inject, each aimed at one detector (M11). */
export const ANOMALY_KINDS = {
  POLICY_INVOCATION_SPIKE: {
    detector: 'POLICY_INVOCATION_ANOMALY',
    subjectType: 'POLICY',
    metric: 'INVOCATIONS',
    factor: 5,
  },
  POLICY_INVOCATION_DROP: {
    detector: 'POLICY_INVOCATION_ANOMALY',
    subjectType: 'POLICY',
    metric: 'INVOCATIONS',
    factor: 0.02,
  },
  POLICY_BLOCK_SPIKE: {
    detector: 'POLICY_BLOCK_ANOMALY',
    subjectType: 'POLICY',
    metric: 'BLOCKS',
    factor: 8,
  },
  POLICY_WARN_SPIKE: {
    detector: 'POLICY_WARN_ANOMALY',
    subjectType: 'POLICY',
    metric: 'WARNS',
    factor: 8,
  },
  POLICY_HITL_SPIKE: {
    detector: 'POLICY_HITL_HOLD_ANOMALY',
    subjectType: 'POLICY',
    metric: 'HITL_HOLDS',
    factor: 10,
  },
  AGENT_SPIKE: {
    detector: 'AGENT_VOLUME_ANOMALY',
    subjectType: 'AGENT',
    metric: 'REQUESTS',
    factor: 5,
  },
  AGENT_DROP: {
    detector: 'AGENT_VOLUME_ANOMALY',
    subjectType: 'AGENT',
    metric: 'REQUESTS',
    factor: 0.03,
  },
  USER_SPIKE: {
    detector: 'USER_VOLUME_ANOMALY',
    subjectType: 'USER',
    metric: 'REQUESTS',
    factor: 5,
  },
  USER_DROP: {
    detector: 'USER_VOLUME_ANOMALY',
    subjectType: 'USER',
    metric: 'REQUESTS',
    factor: 0.03,
  },
  MCP_SERVER_SPIKE: {
    detector: 'MCP_SERVER_VOLUME_ANOMALY',
    subjectType: 'MCP_SERVER',
    metric: 'REQUESTS',
    factor: 5,
  },
  MCP_SERVER_DROP: {
    detector: 'MCP_SERVER_VOLUME_ANOMALY',
    subjectType: 'MCP_SERVER',
    metric: 'REQUESTS',
    factor: 0.03,
  },
  LLM_GATEWAY_SPIKE: {
    detector: 'LLM_GATEWAY_VOLUME_ANOMALY',
    subjectType: 'LLM_GATEWAY',
    metric: 'REQUESTS',
    factor: 5,
  },
  LLM_GATEWAY_DROP: {
    detector: 'LLM_GATEWAY_VOLUME_ANOMALY',
    subjectType: 'LLM_GATEWAY',
    metric: 'REQUESTS',
    factor: 0.03,
  },
  CHANNEL_SPIKE: {
    detector: 'CHANNEL_VOLUME_ANOMALY',
    subjectType: 'CHANNEL',
    metric: 'REQUESTS',
    factor: 5,
  },
  CHANNEL_DROP: {
    detector: 'CHANNEL_VOLUME_ANOMALY',
    subjectType: 'CHANNEL',
    metric: 'REQUESTS',
    factor: 0.03,
  },
  TENANT_ERRORS: {
    detector: 'TENANT_ERROR_SPIKE',
    subjectType: 'POLICY',
    metric: 'ERRORS',
    factor: 6,
  },
  TENANT_WARNS: {
    detector: 'TENANT_WARN_SPIKE',
    subjectType: 'POLICY',
    metric: 'WARNS',
    factor: 5,
  },
  TENANT_HITL: {
    detector: 'TENANT_HITL_SPIKE',
    subjectType: 'POLICY',
    metric: 'HITL_HOLDS',
    factor: 6,
  },
  LLM_PROVIDER_ERRORS: {
    detector: 'LLM_PROVIDER_ERROR_RATE_SPIKE',
    subjectType: 'LLM_PROVIDER',
    metric: 'ERRORS',
    factor: 25,
  },
  LLM_GATEWAY_FAILOVERS: {
    detector: 'LLM_GATEWAY_FAILOVER_SPIKE',
    subjectType: 'LLM_GATEWAY',
    metric: 'LLM_FAILOVERS',
    factor: 0,
  },
  MCP_SERVER_ERRORS: {
    detector: 'MCP_SERVER_ERROR_RATE_SPIKE',
    subjectType: 'MCP_SERVER',
    metric: 'ERRORS',
    factor: 15,
  },
  /** A policy that warned on a small share of its invocations warns on 40 % of them. */
  POLICY_WARN_RARE_TO_COMMON: {
    detector: 'POLICY_WARN_ANOMALY',
    subjectType: 'POLICY',
    metric: 'WARNS',
    factor: 0,
  },
  DORMANT_AGENT: {
    detector: 'DORMANT_AGENT_REACTIVATION',
    subjectType: 'AGENT',
    metric: 'REQUESTS',
    factor: 0,
  },
  DORMANT_USER: {
    detector: 'DORMANT_USER_REACTIVATION',
    subjectType: 'USER',
    metric: 'REQUESTS',
    factor: 0,
  },
  NOVEL_TOOL: {
    detector: 'NOVEL_TOOL_CALL',
    subjectType: 'MCP_SERVER',
    metric: 'TOOL_CALLS',
    factor: 0,
  },
  NEW_MCP_SERVER: {
    detector: 'NEW_MCP_SERVER_BINDING',
    subjectType: 'MCP_SERVER',
    metric: 'REQUESTS',
    factor: 0,
  },
} as const satisfies Record<
  string,
  { detector: TrafficDetector; subjectType: SubjectType; metric: RollupMetric; factor: number }
>;
export type AnomalyKind = keyof typeof ANOMALY_KINDS;
export const ANOMALY_KIND_NAMES = Object.keys(ANOMALY_KINDS) as AnomalyKind[];

/** One injected anomaly, as the generator applies it and the bench scores it. */
export interface Anomaly {
  kind: AnomalyKind;
  detector: TrafficDetector;
  /** The subject the detector should name (the tenant, for tenant spikes). */
  subject: { type: SubjectType; id: string };
  /** The stream the generator changes. */
  target: { type: SubjectType; id: string; metric: RollupMetric };
  start: Date;
  minutes: number;
  /** Rate multiplier on the target stream while the anomaly lasts (1 when only `extraPerMinute`). */
  factor: number;
  /** Events per minute added to the target stream at peak rhythm (tenant spikes, failovers, bursts). */
  extraPerMinute: number;
  /** Dormancy: the target stream is silent from here until `start`, and again after the anomaly. */
  silentFrom?: Date;
  /** Novel tool: the new tool's name. */
  toolName?: string;
  /** Every subject whose counters the anomaly moves: a finding on any of them is explained. */
  affected: string[];
}

export function isActive(anomaly: Anomaly, at: Date): boolean {
  const t = at.getTime();
  return t >= anomaly.start.getTime() && t < anomaly.start.getTime() + anomaly.minutes * 60_000;
}
