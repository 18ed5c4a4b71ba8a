import { Aggregation, GroupBy } from '@agp/contracts';
import { Tx } from '@agp/database';

import { METRIC_KIND, MinutesSummary, PERCENTILE_OF } from '../engine/custom/metric-semantics';
import { SeriesRead, spansOf } from './metric-series-spans';
import { SAMPLES_SQL, T, VALUE_SQL, rankSql } from './metric-series.sql';

/** The grouping's cells over the reads' span are read once, narrow (M35, M44). */
export async function summariesOver(
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
  const percentilesOf = reads.map((_read, k) =>
    statisticsOf(k).filter((a) => PERCENTILE_OF[a] !== undefined),
  );
  const withValues = new Set(
    reads.filter((_read, k) => statisticsOf(k).length > 0).map((read) => read.metric),
  );
  const counted = reads.flatMap((read, k) => (METRIC_KIND[read.metric] === 'DISTINCT' ? [k] : []));
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

// M35: each distinct read's distinct ids per group over its window, counted in the database (the
// ids never leave it); by read index, for the reads of a DISTINCT metric.
export async function distinctOver(
  tx: Tx,
  tenantId: string,
  groupBy: GroupBy,
  reads: readonly SeriesRead[],
  keys: readonly string[] | undefined,
): Promise<Map<number, Map<string, number>>> {
  const counted = reads.flatMap((read, k) => (METRIC_KIND[read.metric] === 'DISTINCT' ? [k] : []));
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
