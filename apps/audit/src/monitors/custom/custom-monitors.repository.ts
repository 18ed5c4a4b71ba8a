import { Injectable } from '@nestjs/common';
import { GroupBy, MonitorMetric } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { GroupSeries, percentile } from '../engine/custom/metric-semantics';
import {
  METRIC_FILTER,
  METRIC_VALUE,
  distinctLateral,
  filteredColumn,
  groupLateral,
} from '../engine/custom/metric-query';
import { MonitorDefinition } from '../engine/custom/monitor-definition';
import { mergedSpans } from './metric-series-spans';
import { MinuteRange } from './rollup-series.repository';

const M = `${AUDIT_SCHEMA}.monitor_definitions`;
const E = `${AUDIT_SCHEMA}.events`;

const COLUMNS = `id, name, description, monitor_type AS "monitorType", metric, aggregation,
  time_window AS "window", group_by AS "groupBy", comparison, threshold, min_volume AS "minVolume",
  severity, enabled, created_by_label AS "createdByLabel", updated_by_label AS "updatedByLabel",
  last_evaluated_at AS "lastEvaluatedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export type MonitorFields = Omit<
  MonitorDefinition,
  'id' | 'createdByLabel' | 'lastEvaluatedAt' | 'createdAt' | 'updatedAt'
>;

const FIELD_COLUMNS: ReadonlyArray<[keyof MonitorFields, string]> = [
  ['name', 'name'],
  ['description', 'description'],
  ['monitorType', 'monitor_type'],
  ['metric', 'metric'],
  ['aggregation', 'aggregation'],
  ['window', 'time_window'],
  ['groupBy', 'group_by'],
  ['comparison', 'comparison'],
  ['threshold', 'threshold'],
  ['minVolume', 'min_volume'],
  ['severity', 'severity'],
  ['enabled', 'enabled'],
  ['updatedByLabel', 'updated_by_label'],
];

/** Every query of custom monitors, and the metric reads of their evaluation; each takes the tenant. */
@Injectable()
export class CustomMonitorsRepository {
  async insert(
    tx: Tx,
    tenantId: string,
    id: string,
    fields: MonitorFields,
  ): Promise<MonitorDefinition> {
    const rows: MonitorDefinition[] = await tx.query(
      `INSERT INTO ${M} (id, tenant_id, created_by_label, ${FIELD_COLUMNS.map(([, c]) => c).join(', ')})
       VALUES ($1, $2, $3, ${FIELD_COLUMNS.map((_f, i) => `$${i + 4}`).join(', ')}) RETURNING ${COLUMNS}`,
      [id, tenantId, fields.updatedByLabel, ...FIELD_COLUMNS.map(([f]) => fields[f])],
    );
    return rows[0];
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    fields: MonitorFields,
  ): Promise<MonitorDefinition> {
    const result: unknown = await tx.query(
      `UPDATE ${M} SET ${FIELD_COLUMNS.map(([, c], i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, ...FIELD_COLUMNS.map(([f]) => fields[f])],
    );
    const rows = (
      Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result
    ) as MonitorDefinition[];
    return rows[0];
  }

  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    forUpdate = false,
  ): Promise<MonitorDefinition | undefined> {
    const rows: MonitorDefinition[] = await tx.query(
      `SELECT ${COLUMNS} FROM ${M} WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0];
  }

  async list(tx: Tx, tenantId: string): Promise<MonitorDefinition[]> {
    return tx.query(`SELECT ${COLUMNS} FROM ${M} WHERE tenant_id = $1 ORDER BY name, id`, [
      tenantId,
    ]);
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${M} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /** The tenant's enabled monitors; the evaluator picks those due at a tick (M21). */
  async enabledOf(tx: Tx, tenantId: string): Promise<MonitorDefinition[]> {
    return tx.query(`SELECT ${COLUMNS} FROM ${M} WHERE tenant_id = $1 AND enabled`, [tenantId]);
  }

  async markEvaluated(tx: Tx, tenantId: string, ids: string[], at: Date): Promise<void> {
    await tx.query(`UPDATE ${M} SET last_evaluated_at = $3 WHERE tenant_id = $1 AND id = ANY($2)`, [
      tenantId,
      ids,
      at,
    ]);
  }

  async tenants(tx: Tx): Promise<string[]> {
    const rows: Array<{ tenantId: string }> = await tx.query(
      `SELECT DISTINCT tenant_id AS "tenantId" FROM ${M} WHERE enabled`,
    );
    return rows.map((row) => row.tenantId);
  }

  // One metric's per-minute values by group, from the stored audit events of `[from, to)` (M21):
  // the hops' own recorded fields, latencies included.
  async minuteSeries(
    tx: Tx,
    tenantId: string,
    metric: MonitorMetric,
    groupBy: GroupBy,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const distinct = distinctLateral(metric);
    const laterals = `CROSS JOIN LATERAL ${groupLateral(groupBy)}${distinct ? ` CROSS JOIN LATERAL ${distinct}` : ''}`;
    const where = `e.tenant_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 AND ${METRIC_FILTER[metric]}`;
    const rows: Array<{ group: string; minute: string; value: string | number; samples: string }> =
      await tx.query(
        `SELECT g.key AS "group", floor(extract(epoch FROM e.occurred_at) / 60)::bigint AS minute,
                ${METRIC_VALUE[metric]} AS value, count(DISTINCT e.id) AS samples
         FROM ${E} e ${laterals} WHERE ${where} GROUP BY 1, 2`,
        [tenantId, from, to],
      );
    const byGroup = new Map<string, GroupSeries>();
    for (const row of rows) {
      const series = byGroup.get(row.group) ?? { group: row.group, minutes: new Map(), samples: 0 };
      series.minutes.set(Number(row.minute), Number(row.value));
      series.samples += Number(row.samples);
      byGroup.set(row.group, series);
    }
    if (distinct) {
      const totals: Array<{ group: string; n: string }> = await tx.query(
        `SELECT g.key AS "group", count(DISTINCT d.id) AS n FROM ${E} e ${laterals} WHERE ${where} GROUP BY 1`,
        [tenantId, from, to],
      );
      for (const row of totals) {
        const series = byGroup.get(row.group);
        if (series) {
          series.distinct = Number(row.n);
        }
      }
    }
    return [...byGroup.values()];
  }

  // M27: `minuteSeries` of a distinct metric (USER_DISTINCT, AGENT_DISTINCT) in one statement, its
  // distinct counts made of hashed (group, minute, id) rows instead of a `count(DISTINCT)` that
  // sorts every group on its own: per minute the distinct ids and the events behind them, and (a
  // row whose minute is null) the distinct ids of the whole window.
  async distinctSeries(
    tx: Tx,
    tenantId: string,
    metric: MonitorMetric,
    groupBy: GroupBy,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const distinct = distinctLateral(metric);
    if (!distinct) {
      throw new Error(`${metric} is not a distinct metric`);
    }
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    const rows: Array<{ group: string; minute: string | null; value: string; samples: string }> =
      await tx.query(
        `WITH x AS MATERIALIZED (
           SELECT g.key, floor(extract(epoch FROM e.occurred_at) / 60)::bigint AS minute, e.id AS event, d.id AS party
           FROM ${E} e CROSS JOIN LATERAL ${groupLateral(groupBy)} CROSS JOIN LATERAL ${distinct}
           WHERE e.tenant_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 AND ${METRIC_FILTER[metric]})
         SELECT v.key AS "group", v.minute, v.value, s.samples
         FROM (SELECT key, minute, count(*) AS value FROM (SELECT DISTINCT key, minute, party FROM x) p
               GROUP BY 1, 2) v
         JOIN (SELECT key, minute, count(*) AS samples FROM (SELECT DISTINCT key, minute, event FROM x) q
               GROUP BY 1, 2) s USING (key, minute)
         UNION ALL
         SELECT key, NULL, count(*), NULL FROM (SELECT DISTINCT key, party FROM x) w GROUP BY 1`,
        [tenantId, from, to],
      );
    const byGroup = new Map<string, GroupSeries>();
    for (const row of rows.filter((r) => r.minute !== null)) {
      const series = byGroup.get(row.group) ?? { group: row.group, minutes: new Map(), samples: 0 };
      series.minutes.set(Number(row.minute), Number(row.value));
      series.samples += Number(row.samples);
      byGroup.set(row.group, series);
    }
    for (const row of rows.filter((r) => r.minute === null)) {
      const series = byGroup.get(row.group);
      if (series) {
        series.distinct = Number(row.value);
      }
    }
    return [...byGroup.values()];
  }

  // M27: `minuteSeries` of several (non-distinct) metrics of one grouping over several windows,
  // from one pass over the events the windows span: each (group, minute) row carries every metric's
  // value and sample count, and each window takes its minutes.
  async minuteSeriesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    metrics: readonly MonitorMetric[],
    ranges: readonly MinuteRange[],
  ): Promise<GroupSeries[][][]> {
    const filters = [...new Set(metrics.map((metric) => METRIC_FILTER[metric]))];
    const columns = [...new Set(metrics.map((metric) => filteredColumn(metric).sql))];
    const spans = mergedSpans(ranges);
    const select = [
      ...columns.map((sql, i) => `${sql} AS v${i}`),
      ...filters.map((filter, i) => `count(*) FILTER (WHERE ${filter}) AS s${i}`),
    ];
    const inSpans = spans
      .map((_s, i) => `(e.occurred_at >= $${2 * i + 2} AND e.occurred_at < $${2 * i + 3})`)
      .join(' OR ');
    // A pass over a large tenant has as many groups as (group, minute) pairs: aggregate in memory.
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    const rows: Array<Record<string, string | number | number[] | null>> = await tx.query(
      `SELECT g.key AS "group", floor(extract(epoch FROM e.occurred_at) / 60)::bigint AS minute,
              ${select.join(', ')}
       FROM ${E} e CROSS JOIN LATERAL ${groupLateral(groupBy)}
       WHERE e.tenant_id = $1 AND (${inSpans}) AND (${filters.map((f) => `(${f})`).join(' OR ')})
       GROUP BY 1, 2`,
      [
        tenantId,
        ...spans.flatMap((span) => [
          new Date(span.fromMinute * MINUTE_MS),
          new Date(span.toMinute * MINUTE_MS),
        ]),
      ],
    );
    return metrics.map((metric) => {
      const samplesColumn = `s${filters.indexOf(METRIC_FILTER[metric])}`;
      const column = filteredColumn(metric);
      const valueColumn = `v${columns.indexOf(column.sql)}`;
      const valueOf = (row: (typeof rows)[number]): number =>
        column.percentile !== undefined
          ? percentile(row[valueColumn] as number[], column.percentile)
          : Number(row[valueColumn]);
      return ranges.map(({ fromMinute, toMinute }) => {
        const byGroup = new Map<string, GroupSeries>();
        for (const row of rows) {
          const minute = Number(row.minute);
          const samples = Number(row[samplesColumn]);
          // A (group, minute) without this metric's events is not one of its rows.
          if (samples === 0 || minute < fromMinute || minute >= toMinute) {
            continue;
          }
          const group = String(row.group);
          const series = byGroup.get(group) ?? { group, minutes: new Map(), samples: 0 };
          series.minutes.set(minute, valueOf(row));
          series.samples += samples;
          byGroup.set(group, series);
        }
        return [...byGroup.values()];
      });
    });
  }
}

const MINUTE_MS = 60_000;
