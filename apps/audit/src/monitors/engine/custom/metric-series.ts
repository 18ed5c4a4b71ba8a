import { GROUP_BYS, GroupBy, MonitorMetric } from '@agp/contracts';

import { TRAFFIC_EVENT_TYPES } from '../rollup-counters';

// M29: what one (grouping, group, minute) of a tenant's traffic holds for the custom monitors, kept
// as the ingest stores the events: for every metric of M21 the parts its per-minute value and its
// samples are made of, so that a tick reads these cells instead of scanning the events.
export interface SeriesCell {
  groupBy: GroupBy;
  key: string;
  minute: number;
  requests: number;
  blocks: number;
  warns: number;
  masks: number;
  hitlHolds: number;
  errors: number;
  llmCalls: number;
  llmFailovers: number;
  toolCalls: number;
  mcpRequests: number;
  traffic: number;
  latencySum: number;
  /** Every latency of the minute, unordered: percentiles are exact (nearest rank, M21). */
  latencies: number[];
  /** Distinct user and agent ids (lower case) of the traffic events, and how many events named one. */
  users: string[];
  userEvents: number;
  agents: string[];
  agentEvents: number;
}

/** An event as stored: the fields M21's SQL reads (`details` merged as the mapper stores it). */
export interface StoredTraffic {
  tenantId: string;
  eventType: string;
  occurredAt: string;
  protocol: string | null;
  action: string | null;
  parties: ReadonlyArray<{ type: string; id: string | null } | null>;
  policyIds: readonly string[];
  details: Record<string, unknown> | null;
}

type PartyGrouping = 'AGENT' | 'USER' | 'MCP_SERVER' | 'LLM_GATEWAY' | 'CHANNEL';

/** M21's group keys: the parties of the grouped type and the ids `details` names for it. */
const DETAIL_IDS: Readonly<Record<PartyGrouping, readonly string[]>> = {
  AGENT: [],
  USER: [],
  MCP_SERVER: ['mcpServerId'],
  LLM_GATEWAY: ['llmGatewayId'],
  CHANNEL: ['channelId'],
};

// Objects and arrays (never an id in any contract) give undefined here and are left out (the SQL
// would key them by their JSON text).
export function detailText(details: Record<string, unknown> | null, name: string): string | null {
  const value = details?.[name];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'boolean') {
    return String(value);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return JSON.stringify(value);
  }
  return null;
}

function keysOf(event: StoredTraffic, groupBy: GroupBy): string[] {
  const keys = new Set<string>();
  const add = (id: string | null | undefined): void => {
    if (id !== null && id !== undefined && id !== '') {
      keys.add(id.toLowerCase());
    }
  };
  if (groupBy === 'NONE') {
    return [event.tenantId.toLowerCase()];
  }
  if (groupBy === 'POLICY') {
    event.policyIds.forEach(add);
  } else if (groupBy === 'LLM_PROVIDER') {
    add(detailText(event.details, 'llmProviderId'));
  } else {
    for (const party of event.parties) {
      if (party?.type === groupBy) {
        add(party.id);
      }
    }
    for (const name of DETAIL_IDS[groupBy]) {
      add(detailText(event.details, name));
    }
  }
  return [...keys];
}

/** Ids of one party type (M21's distinct lateral: every non-null id, lower case, once). */
function idsOf(event: StoredTraffic, type: string): string[] {
  const ids = new Set<string>();
  for (const party of event.parties) {
    if (party?.type === type && party.id !== null && party.id !== undefined) {
      ids.add(party.id.toLowerCase());
    }
  }
  return [...ids];
}

function emptyCell(groupBy: GroupBy, key: string, minute: number): SeriesCell {
  return {
    groupBy,
    key,
    minute,
    requests: 0,
    blocks: 0,
    warns: 0,
    masks: 0,
    hitlHolds: 0,
    errors: 0,
    llmCalls: 0,
    llmFailovers: 0,
    toolCalls: 0,
    mcpRequests: 0,
    traffic: 0,
    latencySum: 0,
    latencies: [],
    users: [],
    userEvents: 0,
    agents: [],
    agentEvents: 0,
  };
}

/** The cells of a batch of stored traffic events, one per (grouping, group, minute) (M21). */
export function seriesCellsOf(events: readonly StoredTraffic[]): SeriesCell[] {
  const cells = new Map<string, SeriesCell>();
  const userSets = new Map<SeriesCell, Set<string>>();
  const agentSets = new Map<SeriesCell, Set<string>>();
  for (const event of events) {
    if (!(TRAFFIC_EVENT_TYPES as readonly string[]).includes(event.eventType)) {
      continue;
    }
    const minute = Math.floor(new Date(event.occurredAt).getTime() / 60_000);
    const isCommunication = event.eventType === 'COMMUNICATION_AUDIT';
    const isTraffic = isCommunication || event.eventType === 'LLM_GATEWAY_CALL';
    const isRequest = isCommunication && detailText(event.details, 'direction') !== 'RESPONSE';
    const isError =
      isTraffic && (event.action === 'ERROR' || detailText(event.details, 'outcome') === 'ERROR');
    const given = event.details?.latencyMs;
    const latency =
      isTraffic && typeof given === 'number' && Number.isFinite(given) ? given : undefined;
    const toolName = detailText(event.details, 'toolName');
    const users = isTraffic ? idsOf(event, 'USER') : [];
    const agents = isTraffic ? idsOf(event, 'AGENT') : [];
    const action = (name: string): number => (isCommunication && event.action === name ? 1 : 0);
    for (const groupBy of GROUP_BYS) {
      for (const key of keysOf(event, groupBy)) {
        const id = `${groupBy}|${key}|${minute}`;
        let cell = cells.get(id);
        if (!cell) {
          cell = emptyCell(groupBy, key, minute);
          cells.set(id, cell);
          userSets.set(cell, new Set());
          agentSets.set(cell, new Set());
        }
        cell.requests += isRequest ? 1 : 0;
        cell.blocks += action('BLOCK');
        cell.warns += action('WARN');
        cell.masks += action('MASK');
        cell.hitlHolds += action('HUMAN_REVIEW_REQUIRED');
        cell.errors += isError ? 1 : 0;
        cell.llmCalls += event.eventType === 'LLM_GATEWAY_CALL' ? 1 : 0;
        cell.llmFailovers += event.eventType === 'LLM_GATEWAY_FAILOVER' ? 1 : 0;
        cell.toolCalls += isRequest && toolName !== null && toolName !== '' ? 1 : 0;
        cell.mcpRequests += isRequest && event.protocol === 'MCP' ? 1 : 0;
        cell.traffic += isTraffic ? 1 : 0;
        if (latency !== undefined) {
          cell.latencySum += latency;
          cell.latencies.push(latency);
        }
        users.forEach((u) => userSets.get(cell)?.add(u));
        cell.userEvents += users.length > 0 ? 1 : 0;
        agents.forEach((a) => agentSets.get(cell)?.add(a));
        cell.agentEvents += agents.length > 0 ? 1 : 0;
      }
    }
  }
  for (const cell of cells.values()) {
    cell.users = [...(userSets.get(cell) ?? [])];
    cell.agents = [...(agentSets.get(cell) ?? [])];
  }
  return [...cells.values()];
}

/** M33: one group's traffic events in a batch's cells (each cell's traffic and failovers). */
export interface GroupTotal {
  groupBy: GroupBy;
  key: string;
  events: number;
}

/** M33: the batch's events per group, sorted by grouping and key (the order rows are locked in). */
export function totalsOf(cells: readonly SeriesCell[]): GroupTotal[] {
  const totals = new Map<string, GroupTotal>();
  for (const cell of cells) {
    const id = `${cell.groupBy}|${cell.key}`;
    const total = totals.get(id) ?? { groupBy: cell.groupBy, key: cell.key, events: 0 };
    total.events += cell.traffic + cell.llmFailovers;
    totals.set(id, total);
  }
  return [...totals.values()].sort((a, b) =>
    a.groupBy === b.groupBy ? (a.key < b.key ? -1 : 1) : a.groupBy < b.groupBy ? -1 : 1,
  );
}

/** A cell as the tick reads it: only the columns its metrics need are filled. */
export type SeriesRow = Partial<Omit<SeriesCell, 'groupBy' | 'key' | 'minute'>> & {
  key: string;
  minute: number;
  /** How many latencies the cell holds (read without the latencies when only their mean is needed). */
  latencyCount?: number;
  /** M35: how many distinct user and agent ids the cell holds (read without the ids). */
  userCount?: number;
  agentCount?: number;
};

export type SeriesField = keyof Omit<SeriesRow, 'key' | 'minute'>;

export const SERIES_FIELDS: Readonly<Record<MonitorMetric, readonly SeriesField[]>> = {
  REQUESTS: ['requests'],
  BLOCKS: ['blocks'],
  WARNS: ['warns'],
  MASKS: ['masks'],
  HITL_HOLDS: ['hitlHolds'],
  ERRORS: ['errors'],
  ERROR_RATE_PCT: ['errors', 'traffic'],
  LATENCY_AVG_MS: ['latencySum', 'latencyCount'],
  LATENCY_P50_MS: ['latencyCount', 'latencies'],
  LATENCY_P95_MS: ['latencyCount', 'latencies'],
  LATENCY_P99_MS: ['latencyCount', 'latencies'],
  LLM_CALLS: ['llmCalls'],
  LLM_FAILOVERS: ['llmFailovers'],
  TOOL_CALLS: ['toolCalls'],
  MCP_REQUESTS: ['mcpRequests'],
  // M35: a minute's distinct count; a window's comes from the database (`distinctOver`).
  USER_DISTINCT: ['userCount', 'userEvents'],
  AGENT_DISTINCT: ['agentCount', 'agentEvents'],
};

const COUNTER_OF: Partial<Record<MonitorMetric, SeriesField>> = {
  REQUESTS: 'requests',
  BLOCKS: 'blocks',
  WARNS: 'warns',
  MASKS: 'masks',
  HITL_HOLDS: 'hitlHolds',
  ERRORS: 'errors',
  LLM_CALLS: 'llmCalls',
  LLM_FAILOVERS: 'llmFailovers',
  TOOL_CALLS: 'toolCalls',
  MCP_REQUESTS: 'mcpRequests',
};

const PERCENTILE_OF: Partial<Record<MonitorMetric, number>> = {
  LATENCY_P50_MS: 0.5,
  LATENCY_P95_MS: 0.95,
  LATENCY_P99_MS: 0.99,
};

/** How many of a cell's events a metric looks at (0: the metric has no value that minute). */
export function samplesOf(metric: MonitorMetric, row: SeriesRow): number {
  const counter = COUNTER_OF[metric];
  if (counter) {
    return row[counter] as number;
  }
  if (metric === 'ERROR_RATE_PCT') {
    return row.traffic ?? 0;
  }
  if (metric === 'USER_DISTINCT') {
    return row.userEvents ?? 0;
  }
  if (metric === 'AGENT_DISTINCT') {
    return row.agentEvents ?? 0;
  }
  return row.latencyCount ?? 0;
}

/** Nearest rank (M21: rank ⌈p·n⌉, at least 1) of unsorted values. */
function nearestRank(values: readonly number[], p: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
}

/** A metric's value in one cell with samples: M21's METRIC_VALUE over the cell's events. */
export function valueOf(metric: MonitorMetric, row: SeriesRow): number {
  const counter = COUNTER_OF[metric];
  if (counter) {
    return row[counter] as number;
  }
  const percentile = PERCENTILE_OF[metric];
  if (percentile !== undefined) {
    return nearestRank(row.latencies ?? [], percentile);
  }
  if (metric === 'ERROR_RATE_PCT') {
    return (100 * (row.errors ?? 0)) / (row.traffic ?? 1);
  }
  if (metric === 'LATENCY_AVG_MS') {
    return (row.latencySum ?? 0) / (row.latencyCount ?? 1);
  }
  return (
    (metric === 'USER_DISTINCT'
      ? (row.userCount ?? row.users?.length)
      : (row.agentCount ?? row.agents?.length)) ?? 0
  );
}
