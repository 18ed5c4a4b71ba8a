import { Injectable } from '@nestjs/common';
import { Aggregation, GROUP_BYS, GroupBy, MonitorMetric } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import {
  GroupSeries,
  METRIC_KIND,
  MinutesSummary,
  PERCENTILE_OF,
  statisticOfSummary,
} from './metric-semantics';
import {
  SERIES_FIELDS,
  SeriesCell,
  SeriesField,
  SeriesRow,
  samplesOf,
  totalsOf,
  valueOf,
} from './metric-series';
import { MinuteRange } from './rollup-series.repository';

const T = `${AUDIT_SCHEMA}.monitor_series`;
/** M33: each group's traffic events over all its cells, an upper bound of any window's samples. */
const TOTALS = `${AUDIT_SCHEMA}.monitor_series_totals`;

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

/**
 * The cells' upsert (M29), `$1` the tenant and `$2` the cells (`cellsParameter`): counters added,
 * latencies appended, id sets united.
 */
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

/** One read of a batch: a metric over a window. */
export interface SeriesRead {
  metric: MonitorMetric;
  range: MinuteRange;
  /**
   * M36: false when the read's monitors need no per-minute values: each group then comes with
   * its samples, a count's `total` and a distinct metric's `distinct`, and no minutes.
   */
  minutes?: boolean;
  /**
   * M44 (`windowValuesOver`): the statistics over minutes (AVG, MIN, MAX, P50, P95, P99) its
   * monitors take, computed in the database.
   */
  statistics?: readonly Aggregation[];
}

/** A metric's samples in a cell (`samplesOf`), in SQL. */
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

/**
 * The nearest rank (M21: rank ⌈p·n⌉, at least 1) of a cell's latencies, as `percentile_disc` takes
 * it; one or two latencies (most cells) without a sort.
 */
function latencyRank(p: number): string {
  return `CASE cardinality(latencies) WHEN 0 THEN NULL WHEN 1 THEN latencies[1]
    WHEN 2 THEN ${Math.ceil(p * 2) <= 1 ? 'least' : 'greatest'}(latencies[1], latencies[2])
    ELSE (SELECT percentile_disc(${p}::float8) WITHIN GROUP (ORDER BY x) FROM unnest(latencies) x) END`;
}

/**
 * M44: the rank (1-based) among a window's n values with samples of a percentile's value, in SQL:
 * M21's nearest rank ⌈p·count⌉ (at least 1), a count's `width − n` zeros counted first (below 1:
 * among the zeros).
 */
function rankSql(
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

/**
 * A metric's value in a cell with samples (`valueOf`), in SQL, as a double computed as the
 * process computes it (IEEE division of the same integers and doubles).
 */
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
    const totals = totalsOf(cells);
    // M33: the groups' totals in the same statement, sorted so that two batches lock them in order.
    await tx.query(
      `WITH cells AS (${CELLS_UPSERT})
       INSERT INTO ${TOTALS} AS t (tenant_id, group_by, group_key, events)
       SELECT $1, u.g, u.k, u.n FROM unnest($3::text[], $4::text[], $5::bigint[]) AS u(g, k, n)
       ON CONFLICT (tenant_id, group_by, group_key) DO UPDATE SET events = t.events + excluded.events`,
      [
        tenantId,
        cellsParameter(cells),
        totals.map((total) => total.groupBy),
        totals.map((total) => total.key),
        totals.map((total) => total.events),
      ],
    );
  }

  /**
   * M29: every read of one grouping from one range read of its cells over the reads' span; each
   * read's groups with the metric's value in each minute that has samples (what M21's query over
   * the events gives: `CustomMonitorsRepository.minuteSeries`). `wanted[k]`, when given, says which
   * groups read k gives: those with at least `minSamples` samples in read `read`'s window for one
   * of its entries (a monitor judges only groups of its minVolume, and compares a CHANGE only for
   * those). M33: when every read wants groups of some volume, only the cells of the groups whose
   * totals reach the smallest volume asked are fetched; the samples are then counted here.
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
    const { inSpans, params } = spansOf(tenantId, groupBy, reads);
    const { wantsAll, keys } = await this.groupsToFetch(tx, tenantId, groupBy, reads, wanted);
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
    const distinct = await this.distinctOver(tx, tenantId, groupBy, reads, keys);
    const samples = new Map<number, Map<string, number>>();
    const samplesIn = (j: number): Map<string, number> => {
      let byGroup = samples.get(j);
      if (!byGroup) {
        byGroup = samplesByGroup(rows, reads[j]);
        samples.set(j, byGroup);
      }
      return byGroup;
    };
    return reads.map(({ metric, range, minutes }, k) => {
      const isCount = METRIC_KIND[metric] === 'COUNT';
      const entries = wanted?.[k] ?? [];
      const isWanted = (group: string): boolean =>
        entries.some((e) => (samplesIn(e.read).get(group) ?? 0) >= e.minSamples);
      const byGroup = new Map<string, GroupSeries>();
      const skipped = new Set<string>();
      for (let i = firstAtOrAfter(rows, range.fromMinute); i < rows.length; i += 1) {
        const row = rows[i];
        if (row.minute >= range.toMinute) {
          break;
        }
        const rowSamples = samplesOf(metric, row);
        // A (group, minute) without this metric's events is not one of its minutes.
        if (rowSamples === 0 || skipped.has(row.key)) {
          continue;
        }
        let series = byGroup.get(row.key);
        if (!series) {
          if (!wantsAll[k] && !isWanted(row.key)) {
            skipped.add(row.key);
            continue;
          }
          series = { group: row.key, minutes: new Map(), samples: 0 };
          if (minutes === false && isCount) {
            series.total = 0;
          }
          const ids = distinct.get(k);
          if (ids) {
            series.distinct = ids.get(row.key) ?? 0;
          }
          byGroup.set(row.key, series);
        }
        if (series.total !== undefined) {
          // A count's value in a minute is its samples (M21): the window's total is their sum.
          series.total += rowSamples;
        } else if (minutes !== false) {
          series.minutes.set(row.minute, valueOf(metric, row));
        }
        series.samples += rowSamples;
      }
      return [...byGroup.values()];
    });
  }

  /**
   * M44: what `seriesOver` gives each read, with its window's values computed in the database: per
   * read and group its samples, a count's total, a distinct metric's distinct ids and the
   * statistics over minutes its monitors take (`SeriesRead.statistics`); no minutes leave the
   * database. One statement: the grouping's cells over the reads' span read once into a narrow
   * table (each metric's samples and value per cell, the ids where a distinct metric is read),
   * then per window one aggregate per group over it (`summariesOver`); `statisticOfSummary` takes
   * each statistic from that as `aggregate` takes it from the minutes. The groups given are those
   * `seriesOver` gives (`wanted`, M33's bound).
   */
  async windowValuesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    if (reads.length === 0) {
      return [];
    }
    const { wantsAll, keys } = await this.groupsToFetch(tx, tenantId, groupBy, reads, wanted);
    if (keys?.length === 0) {
      return reads.map(() => []);
    }
    const { summaries, distinct } = await this.summariesOver(tx, tenantId, groupBy, reads, keys);
    const all = reads.map(({ metric, range, statistics = [] }, k) => {
      const width = range.toMinute - range.fromMinute;
      const isCount = METRIC_KIND[metric] === 'COUNT';
      const ids = distinct.get(k);
      const byGroup = new Map<string, GroupSeries>();
      for (const [group, summary] of summaries[k]) {
        const series: GroupSeries = { group, minutes: new Map(), samples: summary.samples };
        if (isCount) {
          // A count's value in a minute is its samples (M21): the window's total is their sum.
          series.total = summary.samples;
        }
        if (ids) {
          series.distinct = ids.get(group) ?? 0;
        }
        if (statistics.length > 0) {
          series.values = Object.fromEntries(
            statistics.map((a) => [a, statisticOfSummary(metric, a, width, summary)]),
          );
        }
        byGroup.set(group, series);
      }
      return byGroup;
    });
    return reads.map((_read, k) => {
      const list = [...all[k].values()];
      if (wantsAll[k]) {
        return list;
      }
      const entries = wanted?.[k] ?? [];
      return list.filter((series) =>
        entries.some((e) => (all[e.read].get(series.group)?.samples ?? 0) >= e.minSamples),
      );
    });
  }

  /**
   * M44: per read, each group with samples in its window: its samples and, for a read with
   * statistics, over its minutes with samples how many there are, the values' smallest, largest,
   * sum (in the minutes' order) and the value at each percentile's rank; per distinct read (M35),
   * each group's distinct ids in the window. The grouping's cells over the reads' span are read
   * once, narrow; each window's groups come back as one JSON text (parsed natively, M35).
   */
  private async summariesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    keys: readonly string[] | undefined,
  ): Promise<{
    summaries: Array<Map<string, MinutesSummary & { samples: number }>>;
    distinct: Map<number, Map<string, number>>;
  }> {
    const metrics = [...new Set(reads.map((read) => read.metric))];
    const statisticsOf = (k: number): readonly Aggregation[] => reads[k].statistics ?? [];
    // Each read's percentiles, in the order their values come back.
    const percentilesOf = reads.map((_read, k) =>
      statisticsOf(k).filter((a) => PERCENTILE_OF[a] !== undefined),
    );
    const withValues = new Set(
      reads.filter((_read, k) => statisticsOf(k).length > 0).map((read) => read.metric),
    );
    const counted = reads.flatMap((read, k) =>
      METRIC_KIND[read.metric] === 'DISTINCT' ? [k] : [],
    );
    const idsOf = (k: number): string => (reads[k].metric === 'USER_DISTINCT' ? 'users' : 'agents');
    const ids = [...new Set(counted.map(idsOf))];
    const { inSpans, params } = spansOf(tenantId, groupBy, reads);
    const cells = [
      ...metrics.flatMap((metric, m) => [
        `${SAMPLES_SQL[metric]} AS s${m}`,
        ...(withValues.has(metric) ? [`${VALUE_SQL[metric]} AS v${m}`] : []),
      ]),
      ...ids,
    ];
    const windows = [
      ...reads
        .reduce((byRange, read, k) => {
          const id = `${read.range.fromMinute}-${read.range.toMinute}`;
          return byRange.set(id, [...(byRange.get(id) ?? []), k]);
        }, new Map<string, number[]>())
        .values(),
    ];
    const values: unknown[] = [...params, ...(keys ? [keys] : [])];
    const inRange = (k: number): string => {
      values.push(reads[k].range.fromMinute, reads[k].range.toMinute);
      return `minute >= $${values.length - 1} AND minute < $${values.length}`;
    };
    const selects = windows.map((ks, w) => {
      // Per read: the aggregates over its minutes, then the values at the percentiles' ranks.
      const aggregates = ks.flatMap((k, j) => {
        const { metric } = reads[k];
        const m = metrics.indexOf(metric);
        const has = `FILTER (WHERE s${m} > 0)`;
        const statistics = statisticsOf(k);
        const isFloat = !['COUNT', 'DISTINCT'].includes(METRIC_KIND[metric]);
        // Only a sum of fractions depends on its order: the process adds the minutes in order.
        const inOrder = isFloat && statistics.includes('AVG') ? ' ORDER BY minute' : '';
        return [
          `sum(s${m}) AS s${j}`,
          ...(statistics.length > 0
            ? [
                `count(*) ${has} AS n${j}`,
                `min(v${m}) ${has} AS lo${j}`,
                `max(v${m}) ${has} AS hi${j}`,
                `sum(v${m}${inOrder}) ${has} AS sum${j}`,
              ]
            : []),
          ...(percentilesOf[k].length > 0
            ? [`array_agg(v${m} ORDER BY v${m}) ${has} AS sorted${j}`]
            : []),
        ];
      });
      const fields = ks.map((k, j) => {
        const { metric, range } = reads[k];
        const width = range.toMinute - range.fromMinute;
        const ranked = percentilesOf[k].map(
          (a) => `sorted${j}[${rankSql(metric, a, width, `n${j}`)}]`,
        );
        // One array per read (a function takes at most 100 arguments).
        return `json_build_array(${[
          `s${j}`,
          ...(statisticsOf(k).length > 0 ? [`n${j}`, `lo${j}`, `hi${j}`, `sum${j}`] : []),
          ...ranked,
        ].join(', ')})`;
      });
      return `SELECT ${w} AS w, coalesce(json_agg(json_build_array(key, ${fields.join(', ')})), '[]') AS groups
         FROM (SELECT key, ${aggregates.join(', ')} FROM c WHERE ${inRange(ks[0])} GROUP BY key) g`;
    });
    // M35: a distinct metric's window count in the database; the ids never leave it.
    const distinctSelects = counted.map(
      (k, d) => `SELECT ${windows.length + d} AS w, coalesce(json_agg(g.a), '[]') AS groups FROM (
           SELECT json_build_array(key, count(DISTINCT id COLLATE "C")) AS a
           FROM c CROSS JOIN LATERAL unnest(c.${idsOf(k)}) AS id
           WHERE ${inRange(k)} GROUP BY key) g`,
    );
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    // A window's groups: [key, [samples, n, min, max, sum, ...ranked] per read]; a distinct
    // read's: [key, distinct ids].
    const rows: Array<{ w: number; groups: Array<[string, ...unknown[]]> }> = await tx.query(
      `WITH c AS MATERIALIZED (
           SELECT group_key COLLATE "C" AS key, minute, ${cells.join(', ')}
           FROM ${T} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans})
             ${keys ? `AND group_key = ANY($${params.length + 1}::text[])` : ''})
         ${[...selects, ...distinctSelects].join(' UNION ALL ')}`,
      values,
    );
    const summaries = reads.map(() => new Map<string, MinutesSummary & { samples: number }>());
    const distinct = new Map<number, Map<string, number>>(counted.map((k) => [k, new Map()]));
    for (const { w, groups } of rows) {
      if (w >= windows.length) {
        const byGroup = distinct.get(counted[w - windows.length]);
        groups.forEach(([key, n]) => byGroup?.set(key, Number(n)));
        continue;
      }
      for (const [key, ...fields] of groups) {
        for (const [j, k] of windows[w].entries()) {
          const [samples, n, lo, hi, sum, ...ranked] = fields[j] as Array<number | null>;
          // A (group, minute) without this metric's events is not one of its minutes.
          if (Number(samples) > 0) {
            summaries[k].set(key, {
              samples: Number(samples),
              n: Number(n ?? 0),
              lo: Number(lo ?? 0),
              hi: Number(hi ?? 0),
              sum: Number(sum ?? 0),
              ranked: Object.fromEntries(percentilesOf[k].map((a, i) => [a, ranked[i] ?? null])),
            });
          }
        }
      }
    }
    return { summaries, distinct };
  }

  /**
   * M35: each distinct read's distinct ids per group over its window, counted in the database
   * (the ids never leave it); by read index, for the reads of a DISTINCT metric.
   */
  private async distinctOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    keys: readonly string[] | undefined,
  ): Promise<Map<number, Map<string, number>>> {
    const counted = reads.flatMap((read, k) =>
      METRIC_KIND[read.metric] === 'DISTINCT' ? [k] : [],
    );
    const distinct = new Map<number, Map<string, number>>(counted.map((k) => [k, new Map()]));
    if (counted.length === 0) {
      return distinct;
    }
    const rows: Array<{ read: number; key: string; n: number }> = await tx.query(
      `SELECT r.k AS read, c.group_key AS key, count(DISTINCT id COLLATE "C")::integer AS n
       FROM unnest($3::integer[], $4::integer[], $5::integer[], $6::boolean[]) AS r(k, f, t, is_user)
       JOIN ${T} c ON c.tenant_id = $1 AND c.group_by = $2 AND c.minute >= r.f AND c.minute < r.t
         ${keys ? 'AND c.group_key = ANY($7::text[])' : ''}
       CROSS JOIN LATERAL unnest(CASE WHEN r.is_user THEN c.users ELSE c.agents END) AS id
       GROUP BY 1, 2`,
      [
        tenantId,
        groupBy,
        counted,
        counted.map((k) => reads[k].range.fromMinute),
        counted.map((k) => reads[k].range.toMinute),
        counted.map((k) => reads[k].metric === 'USER_DISTINCT'),
        ...(keys ? [keys] : []),
      ],
    );
    for (const row of rows) {
      distinct.get(row.read)?.set(row.key, row.n);
    }
    return distinct;
  }

  /**
   * Which reads want every group (some monitor judges groups of any volume), and otherwise (M33)
   * the only groups whose cells are worth fetching: those whose totals reach the smallest volume
   * asked.
   */
  private async groupsToFetch(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<{ wantsAll: boolean[]; keys: string[] | undefined }> {
    const wantsAll = reads.map((_read, k) => {
      const entries = wanted?.[k] ?? [];
      return entries.length === 0 || entries.some((e) => e.read < 0 || e.minSamples <= 0);
    });
    const keys = wantsAll.some(Boolean)
      ? undefined
      : await this.groupsOfAtLeast(
          tx,
          tenantId,
          groupBy,
          Math.min(...(wanted ?? []).flat().map((e) => e.minSamples)),
        );
    return { wantsAll, keys };
  }

  /** M33: the groups whose cells hold at least `events` traffic events in all. */
  private async groupsOfAtLeast(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    events: number,
  ): Promise<string[]> {
    const rows: Array<{ key: string }> = await tx.query(
      `SELECT group_key AS key FROM ${TOTALS} WHERE tenant_id = $1 AND group_by = $2 AND events >= $3`,
      [tenantId, groupBy, events],
    );
    return rows.map((row) => row.key);
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

  /**
   * Cells older than any window can reach are deleted (system scope), and M33's totals lowered by
   * what they held, in one statement (a group left with none loses its row). M45: found through
   * the key's (tenant, grouping, minute) ranges of the tenants with totals (every tenant with
   * cells has some), not by a scan of the whole wide table at every hour's first tick. An ingest meeting it
   * can only leave a total higher than its cells, never lower: still a bound.
   */
  async prune(tx: Tx, beforeMinute: number): Promise<void> {
    const same = `t.tenant_id = g.tenant_id AND t.group_by = g.group_by AND t.group_key = g.group_key`;
    await tx.query(
      `WITH gone AS (
         DELETE FROM ${T}
         WHERE tenant_id = ANY(ARRAY(SELECT DISTINCT tenant_id FROM ${TOTALS}))
           AND group_by = ANY($2::text[]) AND minute < $1
         RETURNING tenant_id, group_by, group_key, traffic + llm_failovers AS n
       ), g AS (
         SELECT tenant_id, group_by, group_key, sum(n) AS n FROM gone GROUP BY 1, 2, 3
       ), lowered AS (
         UPDATE ${TOTALS} t SET events = t.events - g.n FROM g WHERE ${same} AND t.events > g.n
       )
       DELETE FROM ${TOTALS} t USING g WHERE ${same} AND t.events <= g.n`,
      [beforeMinute, GROUP_BYS],
    );
  }
}

/** Each group's samples of `read`'s metric in its window. */
function samplesByGroup(rows: readonly SeriesRow[], read: SeriesRead): Map<string, number> {
  const byGroup = new Map<string, number>();
  for (let i = firstAtOrAfter(rows, read.range.fromMinute); i < rows.length; i += 1) {
    const row = rows[i];
    if (row.minute >= read.range.toMinute) {
      break;
    }
    byGroup.set(row.key, (byGroup.get(row.key) ?? 0) + samplesOf(read.metric, row));
  }
  return byGroup;
}

/** Index of the first row at or after `minute` (rows sorted by minute). */
export function firstAtOrAfter(rows: readonly SeriesRow[], minute: number): number {
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

/**
 * The condition on `minute` for the reads' span (`$1` the tenant, `$2` the grouping, then each
 * disjoint span's bounds) and its parameters.
 */
export function spansOf(
  tenantId: string,
  groupBy: GroupBy,
  reads: readonly SeriesRead[],
): { inSpans: string; params: unknown[] } {
  const spans = mergedSpans(reads.map((read) => read.range));
  return {
    inSpans: spans
      .map((_s, i) => `(minute >= $${2 * i + 3} AND minute < $${2 * i + 4})`)
      .join(' OR '),
    params: [tenantId, groupBy, ...spans.flatMap((span) => [span.fromMinute, span.toMinute])],
  };
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
