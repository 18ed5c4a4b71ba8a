import { Aggregation, GroupBy, MonitorMetric, SubjectType } from '@agp/contracts';

import { RollupMetric } from '../rollup-counters';

/** Which rollup row (subject type and counter) holds a metric for one grouping (M26). */
export interface RollupSource {
  subjectType: SubjectType;
  metric: RollupMetric;
}

type Groupings = Partial<Record<GroupBy, SubjectType>>;

const PARTIES: Groupings = {
  NONE: 'TENANT',
  AGENT: 'AGENT',
  USER: 'USER',
  MCP_SERVER: 'MCP_SERVER',
  LLM_GATEWAY: 'LLM_GATEWAY',
  CHANNEL: 'CHANNEL',
};
const TENANT_AND_POLICY: Groupings = { NONE: 'TENANT', POLICY: 'POLICY' };

// M26: the (metric, groupBy) pairs whose rollup counter (M4) counts exactly the events the raw
// query of M21 counts.
const SOURCES: Partial<Record<MonitorMetric, Groupings>> = {
  REQUESTS: PARTIES,
  BLOCKS: TENANT_AND_POLICY,
  WARNS: TENANT_AND_POLICY,
  MASKS: TENANT_AND_POLICY,
  HITL_HOLDS: TENANT_AND_POLICY,
  LLM_CALLS: { NONE: 'TENANT', LLM_GATEWAY: 'LLM_GATEWAY' },
  LLM_FAILOVERS: { NONE: 'TENANT', LLM_GATEWAY: 'LLM_GATEWAY' },
  TOOL_CALLS: { NONE: 'TENANT', MCP_SERVER: 'MCP_SERVER' },
};

export function rollupSourceOf(metric: MonitorMetric, groupBy: GroupBy): RollupSource | undefined {
  const subjectType = SOURCES[metric]?.[groupBy];
  return subjectType ? { subjectType, metric: metric as RollupMetric } : undefined;
}

const TOTAL_ONLY: readonly Aggregation[] = ['SUM', 'COUNT', 'RATE_PER_MIN', 'AVG'];

export function needsMinutes(aggregation: Aggregation): boolean {
  return !TOTAL_ONLY.includes(aggregation);
}
