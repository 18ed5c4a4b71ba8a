import { Aggregation, MonitorMetric } from '@agp/contracts';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { METRIC_KIND, PERCENTILE_OF } from '../engine/custom/metric-semantics';
import { SeriesCell, SeriesField } from '../engine/custom/metric-series';

/** The SQL text of the custom monitors' cells (M29): the table, the upsert and each metric's read. */
export const T = `${AUDIT_SCHEMA}.monitor_series`;
/** M33: each group's traffic events over all its cells, an upper bound of any window's samples. */
export const TOTALS = `${AUDIT_SCHEMA}.monitor_series_totals`;

const COUNTERS: ReadonlyArray<[keyof SeriesCell, string]> = [
  ['requests', 'requests'],
  ['blocks', 'blocks'],
  ['warns', 'warns'],
  ['masks', 'masks'],
  ['hitlHolds', 'hitl_holds'],
  ['errors', 'errors'],
  ['llmCalls', 'llm_calls'],
  ['llmFailovers', 'llm_failovers'],
  ['toolCalls', 'tool_calls'],
  ['mcpRequests', 'mcp_requests'],
  ['traffic', 'traffic'],
  ['userEvents', 'user_events'],
  ['agentEvents', 'agent_events'],
];

export const SELECT_OF: Readonly<Record<SeriesField, string>> = {
  ...(Object.fromEntries(
    COUNTERS.map(([field, column]) => [field, `${column} AS "${field}"`]),
  ) as Record<(typeof COUNTERS)[number][0], string>),
  latencySum: `latency_sum AS "latencySum"`,
  latencyCount: `cardinality(latencies) AS "latencyCount"`,
  latencies: 'latencies',
  users: 'users',
  agents: 'agents',
  userCount: `cardinality(users) AS "userCount"`,
  agentCount: `cardinality(agents) AS "agentCount"`,
};

/** The union of two id sets, each id once. */
function union(column: string): string {
  return `CASE WHEN cardinality(excluded.${column}) = 0 THEN s.${column}
    ELSE ARRAY(SELECT DISTINCT x FROM unnest(s.${column} || excluded.${column}) x) END`;
}

const COLUMNS = COUNTERS.map(([, column]) => column);

/** The cells' upsert (M29), `$1` the tenant and `$2` the cells (`cellsParameter`). */
export const CELLS_UPSERT = `
  INSERT INTO ${T} AS s (tenant_id, group_by, group_key, minute, ${COLUMNS.join(', ')},
    latency_sum, latencies, users, agents)
  SELECT $1, c.g, c.k, c.m, ${COLUMNS.map((column) => `coalesce(c.${column}, 0)`).join(', ')},
    coalesce(c.ls, 0), coalesce(c.l, '{}'), coalesce(c.u, '{}'), coalesce(c.a, '{}')
  FROM jsonb_to_recordset($2::jsonb) AS c(g text, k text, m integer,
    ${COLUMNS.map((column) => `${column} integer`).join(', ')},
    ls double precision, l double precision[], u text[], a text[])
  ON CONFLICT (tenant_id, group_by, minute, group_key) DO UPDATE SET
    ${COLUMNS.map((column) => `${column} = s.${column} + excluded.${column}`).join(', ')},
    latency_sum = s.latency_sum + excluded.latency_sum,
    latencies = s.latencies || excluded.latencies,
    users = ${union('users')},
    agents = ${union('agents')}`;

/** The cells as the upsert's JSON: zero counters and empty lists (most of a cell's) left out. */
export function cellsParameter(cells: readonly SeriesCell[]): string {
  return JSON.stringify(
    cells.map((cell) => {
      const row: Record<string, unknown> = { g: cell.groupBy, k: cell.key, m: cell.minute };
      for (const [field, column] of COUNTERS) {
        if (cell[field] !== 0) {
          row[column] = cell[field];
        }
      }
      if (cell.latencies.length > 0) {
        row.ls = cell.latencySum;
        row.l = cell.latencies;
      }
      if (cell.users.length > 0) {
        row.u = cell.users;
      }
      if (cell.agents.length > 0) {
        row.a = cell.agents;
      }
      return row;
    }),
  );
}

export const SAMPLES_SQL: Readonly<Record<MonitorMetric, string>> = {
  REQUESTS: 'requests',
  BLOCKS: 'blocks',
  WARNS: 'warns',
  MASKS: 'masks',
  HITL_HOLDS: 'hitl_holds',
  ERRORS: 'errors',
  ERROR_RATE_PCT: 'traffic',
  LATENCY_AVG_MS: 'cardinality(latencies)',
  LATENCY_P50_MS: 'cardinality(latencies)',
  LATENCY_P95_MS: 'cardinality(latencies)',
  LATENCY_P99_MS: 'cardinality(latencies)',
  LLM_CALLS: 'llm_calls',
  LLM_FAILOVERS: 'llm_failovers',
  TOOL_CALLS: 'tool_calls',
  MCP_REQUESTS: 'mcp_requests',
  USER_DISTINCT: 'user_events',
  AGENT_DISTINCT: 'agent_events',
};

// The nearest rank (M21: rank ⌈p·n⌉, at least 1) of a cell's latencies, as `percentile_disc` takes
// it; one or two latencies (most cells) without a sort.
function latencyRank(p: number): string {
  return `CASE cardinality(latencies) WHEN 0 THEN NULL WHEN 1 THEN latencies[1]
    WHEN 2 THEN ${Math.ceil(p * 2) <= 1 ? 'least' : 'greatest'}(latencies[1], latencies[2])
    ELSE (SELECT percentile_disc(${p}::float8) WITHIN GROUP (ORDER BY x) FROM unnest(latencies) x) END`;
}

// M44: the rank (1-based) among a window's n values with samples of a percentile's value, in SQL:
// M21's nearest rank ⌈p·count⌉ (at least 1), a count's `width − n` zeros counted first (below 1:
// among the zeros).
export function rankSql(
  metric: MonitorMetric,
  aggregation: Aggregation,
  width: number,
  n: string,
): string {
  const p = PERCENTILE_OF[aggregation] ?? 0;
  const kind = METRIC_KIND[metric];
  if (kind === 'COUNT' || kind === 'DISTINCT') {
    return `${Math.max(1, Math.ceil(p * width))} - ${width} + ${n}`;
  }
  return `greatest(1, ceil(${p}::float8 * ${n}))::integer`;
}

// A metric's value in a cell with samples (`valueOf`), in SQL, as a double computed as the process
// computes it (IEEE division of the same integers and doubles).
export const VALUE_SQL: Readonly<Record<MonitorMetric, string>> = {
  ...SAMPLES_SQL,
  ERROR_RATE_PCT: 'CASE WHEN traffic > 0 THEN (100 * errors)::float8 / traffic END',
  LATENCY_AVG_MS: 'latency_sum / nullif(cardinality(latencies), 0)',
  LATENCY_P50_MS: latencyRank(0.5),
  LATENCY_P95_MS: latencyRank(0.95),
  LATENCY_P99_MS: latencyRank(0.99),
  USER_DISTINCT: 'cardinality(users)',
  AGENT_DISTINCT: 'cardinality(agents)',
};
