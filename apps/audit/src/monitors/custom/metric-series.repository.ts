import { Injectable } from '@nestjs/common';
import { GroupBy, MonitorMetric } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { GroupSeries } from './metric-semantics';
import {
  SERIES_FIELDS,
  SeriesCell,
  SeriesField,
  SeriesRow,
  idsOfRow,
  samplesOf,
  valueOf,
} from './metric-series';
import { MinuteRange } from './rollup-series.repository';

const T = `${AUDIT_SCHEMA}.monitor_series`;

/** Counters: added on conflict. */
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

/** What a read selects for each field. */
const SELECT_OF: Readonly<Record<SeriesField, string>> = {
  ...(Object.fromEntries(
    COUNTERS.map(([field, column]) => [field, `${column} AS "${field}"`]),
  ) as Record<(typeof COUNTERS)[number][0], string>),
  latencySum: `latency_sum AS "latencySum"`,
  latencyCount: `cardinality(latencies) AS "latencyCount"`,
  latencies: 'latencies',
  users: 'users',
  agents: 'agents',
};

/** A metric's samples in a cell (`samplesOf`), in SQL. */
const SAMPLES_SQL: Readonly<Record<MonitorMetric, string>> = {
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

/** The union of two id sets, each id once. */
function union(column: string): string {
  return `CASE WHEN cardinality(excluded.${column}) = 0 THEN s.${column}
    ELSE ARRAY(SELECT DISTINCT x FROM unnest(s.${column} || excluded.${column}) x) END`;
}

/** One read of a batch: a metric over a window. */
export interface SeriesRead {
  metric: MonitorMetric;
  range: MinuteRange;
}

/**
 * M29: the custom monitors' per-minute cells (`monitor_series`), written in the ingest's
 * transaction and read by grouping at a tick. Every method takes the tenant.
 */
@Injectable()
export class MetricSeriesRepository {
  /** Adds a batch's cells (one per grouping, group and minute) to what is stored. */
  async add(tx: Tx, tenantId: string, cells: readonly SeriesCell[]): Promise<void> {
    if (cells.length === 0) {
      return;
    }
    const counters = COUNTERS.map(([, column]) => column);
    await tx.query(
      `INSERT INTO ${T} AS s (tenant_id, group_by, group_key, minute, ${counters.join(', ')},
         latency_sum, latencies, users, agents)
       SELECT $1, c.g, c.k, c.m, ${counters.map((column) => `coalesce(c.${column}, 0)`).join(', ')},
         coalesce(c.ls, 0), coalesce(c.l, '{}'), coalesce(c.u, '{}'), coalesce(c.a, '{}')
       FROM jsonb_to_recordset($2::jsonb) AS c(g text, k text, m integer,
         ${counters.map((column) => `${column} integer`).join(', ')},
         ls double precision, l double precision[], u text[], a text[])
       ON CONFLICT (tenant_id, group_by, minute, group_key) DO UPDATE SET
         ${counters.map((column) => `${column} = s.${column} + excluded.${column}`).join(', ')},
         latency_sum = s.latency_sum + excluded.latency_sum,
         latencies = s.latencies || excluded.latencies,
         users = ${union('users')},
         agents = ${union('agents')}`,
      [
        tenantId,
        // Zero counters and empty lists are left out (most of a cell's): the SELECT fills them in.
        JSON.stringify(
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
        ),
      ],
    );
  }

  /**
   * M29: every read of one grouping from one range read of its cells over the reads' span; each
   * read's groups with the metric's value in each minute that has samples (what M21's query over
   * the events gives: `CustomMonitorsRepository.minuteSeries`). `wanted[k]`, when given, says which
   * groups read k must give: those with at least `minSamples` samples in read `read`'s window for
   * one of its entries (a monitor judges only groups of its minVolume, and compares a CHANGE only
   * for those). Other groups may come too. When every read wants groups of some volume, the
   * statement first sums each group's samples in the database and fetches only the cells of the
   * groups wanted.
   */
  async seriesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    if (reads.length === 0) {
      return [];
    }
    const fields = [...new Set(reads.flatMap((read) => SERIES_FIELDS[read.metric]))];
    const spans = mergedSpans(reads.map((read) => read.range));
    const inSpans = spans
      .map((_s, i) => `(minute >= $${2 * i + 3} AND minute < $${2 * i + 4})`)
      .join(' OR ');
    const params = [
      tenantId,
      groupBy,
      ...spans.flatMap((span) => [span.fromMinute, span.toMinute]),
    ];
    const needed = wanted ? await this.groupsWanted(tx, params, inSpans, reads, wanted) : undefined;
    const keys = needed?.every((set) => set !== undefined)
      ? [...new Set(needed.flatMap((set) => [...(set ?? [])]))]
      : undefined;
    if (keys?.length === 0) {
      return reads.map(() => []);
    }
    const rows: SeriesRow[] = await tx.query(
      `SELECT group_key AS key, minute, ${fields.map((field) => SELECT_OF[field]).join(', ')}
       FROM ${T} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans})
         ${keys ? `AND group_key = ANY($${params.length + 1}::text[])` : ''}
       ORDER BY minute`,
      keys ? [...params, keys] : params,
    );
    return reads.map(({ metric, range }, k) => {
      const only = needed?.[k];
      const byGroup = new Map<string, GroupSeries>();
      const ids = new Map<string, Set<string>>();
      for (let i = firstAtOrAfter(rows, range.fromMinute); i < rows.length; i += 1) {
        const row = rows[i];
        if (row.minute >= range.toMinute) {
          break;
        }
        const samples = samplesOf(metric, row);
        // A (group, minute) without this metric's events is not one of its minutes.
        if (samples === 0 || (only && !only.has(row.key))) {
          continue;
        }
        let series = byGroup.get(row.key);
        if (!series) {
          series = { group: row.key, minutes: new Map(), samples: 0 };
          byGroup.set(row.key, series);
        }
        series.minutes.set(row.minute, valueOf(metric, row));
        series.samples += samples;
        const rowIds = idsOfRow(metric, row);
        if (rowIds) {
          const seen = ids.get(row.key) ?? new Set<string>();
          rowIds.forEach((id) => seen.add(id));
          ids.set(row.key, seen);
        }
      }
      for (const [group, seen] of ids) {
        const series = byGroup.get(group);
        if (series) {
          series.distinct = seen.size;
        }
      }
      return [...byGroup.values()];
    });
  }

  /**
   * The groups each read must give (undefined: all of them): one aggregate over the cells, each
   * group's samples in the window of every read some entry names.
   */
  private async groupsWanted(
    tx: Tx,
    params: unknown[],
    inSpans: string,
    reads: readonly SeriesRead[],
    wanted: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<Array<Set<string> | undefined>> {
    const all = wanted.map(
      (entries) => entries.length === 0 || entries.some((e) => e.read < 0 || e.minSamples <= 0),
    );
    if (all.every(Boolean)) {
      return wanted.map(() => undefined);
    }
    const named = [
      ...new Set(wanted.flatMap((entries, k) => (all[k] ? [] : entries.map((e) => e.read)))),
    ];
    const sums = named.map((j, i) => {
      const { metric } = reads[j];
      const at = params.length + 2 * i;
      return `sum(${SAMPLES_SQL[metric]}) FILTER (WHERE minute >= $${at + 1} AND minute < $${at + 2}) AS s${i}`;
    });
    const rows: Array<Record<string, string | null>> = await tx.query(
      `SELECT group_key AS key, ${sums.join(', ')}
       FROM ${T} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans}) GROUP BY group_key`,
      [...params, ...named.flatMap((j) => [reads[j].range.fromMinute, reads[j].range.toMinute])],
    );
    return wanted.map((entries, k) => {
      if (all[k]) {
        return undefined;
      }
      const groups = new Set<string>();
      for (const row of rows) {
        if (entries.some((e) => Number(row[`s${named.indexOf(e.read)}`] ?? 0) >= e.minSamples)) {
          groups.add(String(row.key));
        }
      }
      return groups;
    });
  }

  /**
   * The first whole minute the cells hold (M29): events stored before the cells began are in
   * none, so windows starting earlier are read as before.
   */
  async startMinute(tx: Tx): Promise<number> {
    const rows: Array<{ minute: number }> = await tx.query(
      `SELECT ceil(extract(epoch FROM started_at) / 60)::integer AS minute FROM ${AUDIT_SCHEMA}.monitor_series_start`,
    );
    return rows[0]?.minute ?? Number.MAX_SAFE_INTEGER;
  }

  /** Cells older than any window can reach are deleted (system scope). */
  async prune(tx: Tx, beforeMinute: number): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE minute < $1`, [beforeMinute]);
  }
}

/** Index of the first row at or after `minute` (rows sorted by minute). */
function firstAtOrAfter(rows: readonly SeriesRow[], minute: number): number {
  let [lo, hi] = [0, rows.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].minute < minute) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** The ranges' union as disjoint spans, so a read takes no cell twice and none between them. */
export function mergedSpans(ranges: readonly MinuteRange[]): MinuteRange[] {
  const sorted = [...ranges].sort((a, b) => a.fromMinute - b.fromMinute);
  const spans: MinuteRange[] = [];
  for (const range of sorted) {
    const last = spans[spans.length - 1];
    if (last && range.fromMinute <= last.toMinute) {
      last.toMinute = Math.max(last.toMinute, range.toMinute);
    } else {
      spans.push({ ...range });
    }
  }
  return spans;
}
