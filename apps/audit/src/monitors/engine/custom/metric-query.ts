import { GroupBy, MonitorMetric } from '@agp/contracts';

/** M21: the SQL pieces that turn stored audit events into one metric, grouped. */
const PARTY_TYPES = ['actor', 'source', 'sink'] as const;

function parties(type: string): string {
  return PARTY_TYPES.map((p) => `CASE WHEN e.${p}_type = '${type}' THEN e.${p}_id END`).join(', ');
}

function detailIds(...names: string[]): string {
  return names.map((name) => `e.details->>'${name}'`).join(', ');
}

const GROUP_KEYS: Readonly<Record<Exclude<GroupBy, 'NONE'>, string>> = {
  AGENT: `ARRAY[${parties('AGENT')}]`,
  USER: `ARRAY[${parties('USER')}]`,
  MCP_SERVER: `ARRAY[${parties('MCP_SERVER')}, ${detailIds('mcpServerId')}]`,
  LLM_GATEWAY: `ARRAY[${parties('LLM_GATEWAY')}, ${detailIds('llmGatewayId')}]`,
  LLM_PROVIDER: `ARRAY[${detailIds('llmProviderId')}]`,
  CHANNEL: `ARRAY[${parties('CHANNEL')}, ${detailIds('channelId')}]`,
  POLICY: `e.policy_ids::text[]`,
};

/** The lateral that gives each event its groups: every distinct id of the grouped kind it names. */
export function groupLateral(groupBy: GroupBy): string {
  if (groupBy === 'NONE') {
    return `(SELECT e.tenant_id::text) g(key)`;
  }
  return `(SELECT DISTINCT lower(k) FROM unnest(${GROUP_KEYS[groupBy]}) k WHERE k IS NOT NULL AND k <> '') g(key)`;
}

const TRAFFIC = `e.event_type IN ('COMMUNICATION_AUDIT', 'LLM_GATEWAY_CALL')`;
const REQUEST = `e.event_type = 'COMMUNICATION_AUDIT' AND e.details->>'direction' IS DISTINCT FROM 'RESPONSE'`;
const ERROR = `(e.action = 'ERROR' OR e.details->>'outcome' = 'ERROR')`;
const LATENCY = `(e.details->>'latencyMs')::double precision`;
const HAS_LATENCY = `${TRAFFIC} AND jsonb_typeof(e.details->'latencyMs') = 'number'`;

function action(name: string): string {
  return `e.event_type = 'COMMUNICATION_AUDIT' AND e.action = '${name}'`;
}

export const METRIC_FILTER: Readonly<Record<MonitorMetric, string>> = {
  REQUESTS: REQUEST,
  BLOCKS: action('BLOCK'),
  WARNS: action('WARN'),
  MASKS: action('MASK'),
  HITL_HOLDS: action('HUMAN_REVIEW_REQUIRED'),
  ERRORS: `${TRAFFIC} AND ${ERROR}`,
  ERROR_RATE_PCT: TRAFFIC,
  LATENCY_AVG_MS: HAS_LATENCY,
  LATENCY_P50_MS: HAS_LATENCY,
  LATENCY_P95_MS: HAS_LATENCY,
  LATENCY_P99_MS: HAS_LATENCY,
  LLM_CALLS: `e.event_type = 'LLM_GATEWAY_CALL'`,
  LLM_FAILOVERS: `e.event_type = 'LLM_GATEWAY_FAILOVER'`,
  TOOL_CALLS: `${REQUEST} AND coalesce(e.details->>'toolName', '') <> ''`,
  MCP_REQUESTS: `${REQUEST} AND e.protocol = 'MCP'`,
  USER_DISTINCT: TRAFFIC,
  AGENT_DISTINCT: TRAFFIC,
};

/** The per-minute value of a metric over the rows of one group and minute. */
export const METRIC_VALUE: Readonly<Record<MonitorMetric, string>> = {
  REQUESTS: 'count(*)',
  BLOCKS: 'count(*)',
  WARNS: 'count(*)',
  MASKS: 'count(*)',
  HITL_HOLDS: 'count(*)',
  ERRORS: 'count(*)',
  ERROR_RATE_PCT: `100.0 * count(*) FILTER (WHERE ${ERROR}) / count(*)`,
  LATENCY_AVG_MS: `avg(${LATENCY})`,
  LATENCY_P50_MS: `percentile_disc(0.5) WITHIN GROUP (ORDER BY ${LATENCY})`,
  LATENCY_P95_MS: `percentile_disc(0.95) WITHIN GROUP (ORDER BY ${LATENCY})`,
  LATENCY_P99_MS: `percentile_disc(0.99) WITHIN GROUP (ORDER BY ${LATENCY})`,
  LLM_CALLS: 'count(*)',
  LLM_FAILOVERS: 'count(*)',
  TOOL_CALLS: 'count(*)',
  MCP_REQUESTS: 'count(*)',
  USER_DISTINCT: 'count(DISTINCT d.id)',
  AGENT_DISTINCT: 'count(DISTINCT d.id)',
};

export function distinctLateral(metric: MonitorMetric): string | undefined {
  const type =
    metric === 'USER_DISTINCT' ? 'USER' : metric === 'AGENT_DISTINCT' ? 'AGENT' : undefined;
  return type
    ? `(SELECT DISTINCT lower(u) FROM unnest(ARRAY[${parties(type)}]) u WHERE u IS NOT NULL) d(id)`
    : undefined;
}

/** M27: a metric's column in a pass over several metrics, and how its per-minute value is made. */
export interface FilteredColumn {
  /** An aggregate over the rows of one (group, minute), restricted to the metric's events. */
  sql: string;
  percentile?: number;
}

const PERCENTILE_OF: Partial<Record<MonitorMetric, number>> = {
  LATENCY_P50_MS: 0.5,
  LATENCY_P95_MS: 0.95,
  LATENCY_P99_MS: 0.99,
};

// Distinct metrics are not batched this way (their id lateral multiplies the rows the others count)
// (M27).
export function filteredColumn(metric: MonitorMetric): FilteredColumn {
  const only = `FILTER (WHERE ${METRIC_FILTER[metric]})`;
  const percentile = PERCENTILE_OF[metric];
  if (percentile !== undefined) {
    return { sql: `array_agg(${LATENCY}) ${only}`, percentile };
  }
  if (metric === 'ERROR_RATE_PCT') {
    return {
      sql: `100.0 * count(*) FILTER (WHERE ${METRIC_FILTER[metric]} AND ${ERROR}) / nullif(count(*) ${only}, 0)`,
    };
  }
  if (distinctLateral(metric)) {
    throw new Error(`${metric} is read on its own`);
  }
  return { sql: `${METRIC_VALUE[metric]} ${only}` };
}
