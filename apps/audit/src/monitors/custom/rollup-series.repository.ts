import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { GroupSeries } from './metric-semantics';
import { RollupSource } from './rollup-source';

const R = `${AUDIT_SCHEMA}.monitor_rollups`;
const MINUTE_MS = 60_000;

/** Window offsets of an hour row: running[] is 1-based, running[k] = events in its minutes 0..k-1. */
const WINDOW_OF_ROW = `CROSS JOIN LATERAL (SELECT
    greatest(1, $4::bigint - (extract(epoch FROM r.hour) / 60)::bigint + 1)::int AS lo,
    least(60, $5::bigint - (extract(epoch FROM r.hour) / 60)::bigint)::int AS hi) w`;
const ROWS_OF = `r.tenant_id = $1 AND r.subject_type = $2 AND r.metric = $3
  AND r.hour >= to_timestamp($4::bigint * 60) - interval '59 minutes' AND r.hour < to_timestamp($5::bigint * 60)`;

/**
 * M26: a count metric's groups in a window read from the minute rollups (M3) instead of the
 * events: one hour row per group and hour, whatever the traffic. Every method takes the tenant.
 */
@Injectable()
export class RollupSeriesRepository {
  /** Each group's window total (SUM, COUNT, RATE_PER_MIN and AVG need nothing more). */
  async totals(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const rows: Array<{ group: string; total: string }> = await tx.query(
      `SELECT r.subject_id::text AS "group",
              sum(r.running[w.hi] - coalesce(r.running[w.lo - 1], 0)) AS total
       FROM ${R} r ${WINDOW_OF_ROW}
       WHERE ${ROWS_OF} AND w.lo <= w.hi
       GROUP BY 1 HAVING sum(r.running[w.hi] - coalesce(r.running[w.lo - 1], 0)) > 0`,
      params(tenantId, source, from, to),
    );
    return rows.map((row) => ({
      group: row.group,
      minutes: new Map(),
      samples: Number(row.total),
      total: Number(row.total),
    }));
  }

  /** Each group's count in every minute of the window that has events (MIN, MAX, percentiles). */
  async minutes(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const rows: Array<{ group: string; first: string; running: number[] }> = await tx.query(
      `SELECT r.subject_id::text AS "group", (extract(epoch FROM r.hour) / 60)::bigint AS first, r.running
       FROM ${R} r WHERE ${ROWS_OF}`,
      params(tenantId, source, from, to),
    );
    const [lo, hi] = [from.getTime() / MINUTE_MS, to.getTime() / MINUTE_MS];
    const byGroup = new Map<string, GroupSeries>();
    for (const row of rows) {
      const series = byGroup.get(row.group) ?? { group: row.group, minutes: new Map(), samples: 0 };
      const first = Number(row.first);
      for (let k = 0; k < 60; k += 1) {
        const count = row.running[k] - (k > 0 ? row.running[k - 1] : 0);
        const minute = first + k;
        if (count > 0 && minute >= lo && minute < hi) {
          series.minutes.set(minute, count);
          series.samples += count;
        }
      }
      if (series.samples > 0) {
        byGroup.set(row.group, series);
      }
    }
    return [...byGroup.values()];
  }
}

function params(tenantId: string, source: RollupSource, from: Date, to: Date): unknown[] {
  return [
    tenantId,
    source.subjectType,
    source.metric,
    Math.floor(from.getTime() / MINUTE_MS),
    Math.floor(to.getTime() / MINUTE_MS),
  ];
}
