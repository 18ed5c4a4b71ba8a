import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { GroupSeries } from '../engine/custom/metric-semantics';
import { RollupSource } from '../engine/custom/rollup-source';

const R = `${AUDIT_SCHEMA}.monitor_rollups`;
const MINUTE_MS = 60_000;

export interface MinuteRange {
  fromMinute: number;
  toMinute: number;
}

/** Rows of one counter overlapping `[$4, $5)` minutes (an hour row holds minutes hour..hour+59). */
const ROWS_OF = `r.tenant_id = $1 AND r.subject_type = $2 AND r.metric = $3
  AND r.hour >= to_timestamp($4::bigint * 60) - interval '59 minutes' AND r.hour < to_timestamp($5::bigint * 60)`;
const WINDOWS_OF_ROW = `CROSS JOIN LATERAL (SELECT q.k,
    greatest(1, q.from_minute - (extract(epoch FROM r.hour) / 60)::bigint + 1)::int AS lo,
    least(60, q.to_minute - (extract(epoch FROM r.hour) / 60)::bigint)::int AS hi
  FROM unnest($6::bigint[], $7::bigint[]) WITH ORDINALITY AS q(from_minute, to_minute, k)) w`;
const WINDOW_COUNT = `r.running[w.hi] - coalesce(r.running[w.lo - 1], 0)`;

// M26: a count metric's groups in a window read from the minute rollups (M3) instead of the events:
// one hour row per group and hour, whatever the traffic (M27).
@Injectable()
export class RollupSeriesRepository {
  async totals(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const [series] = await this.totalsOver(tx, tenantId, source, [rangeOf(from, to)]);
    return series;
  }

  /** `totals` of several windows in one pass over the rows they span: one list per range. */
  async totalsOver(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    ranges: readonly MinuteRange[],
  ): Promise<GroupSeries[][]> {
    const rows: Array<{ group: string; k: string; total: string }> = await tx.query(
      `SELECT r.subject_id::text AS "group", w.k, sum(${WINDOW_COUNT}) AS total
       FROM ${R} r ${WINDOWS_OF_ROW}
       WHERE ${ROWS_OF} AND w.lo <= w.hi
       GROUP BY 1, 2 HAVING sum(${WINDOW_COUNT}) > 0`,
      [
        ...params(tenantId, source, ranges),
        ranges.map((r) => r.fromMinute),
        ranges.map((r) => r.toMinute),
      ],
    );
    const byRange = ranges.map((): GroupSeries[] => []);
    for (const row of rows) {
      byRange[Number(row.k) - 1].push({
        group: row.group,
        minutes: new Map(),
        samples: Number(row.total),
        total: Number(row.total),
      });
    }
    return byRange;
  }

  /** Each group's count in every minute of the window that has events (MIN, MAX, percentiles). */
  async minutes(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    from: Date,
    to: Date,
  ): Promise<GroupSeries[]> {
    const [series] = await this.minutesOver(tx, tenantId, source, [rangeOf(from, to)]);
    return series;
  }

  /** `minutes` of several windows from one read of the rows they span: one list per range. */
  async minutesOver(
    tx: Tx,
    tenantId: string,
    source: RollupSource,
    ranges: readonly MinuteRange[],
  ): Promise<GroupSeries[][]> {
    const rows: Array<{ group: string; first: string; running: number[] }> = await tx.query(
      `SELECT r.subject_id::text AS "group", (extract(epoch FROM r.hour) / 60)::bigint AS first, r.running
       FROM ${R} r WHERE ${ROWS_OF}`,
      params(tenantId, source, ranges),
    );
    return ranges.map(({ fromMinute: lo, toMinute: hi }) => {
      const byGroup = new Map<string, GroupSeries>();
      for (const row of rows) {
        const first = Number(row.first);
        if (first + 60 <= lo || first >= hi) {
          continue;
        }
        const series = byGroup.get(row.group) ?? {
          group: row.group,
          minutes: new Map(),
          samples: 0,
        };
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
    });
  }
}

export function rangeOf(from: Date, to: Date): MinuteRange {
  return {
    fromMinute: Math.floor(from.getTime() / MINUTE_MS),
    toMinute: Math.floor(to.getTime() / MINUTE_MS),
  };
}

function params(tenantId: string, source: RollupSource, ranges: readonly MinuteRange[]): unknown[] {
  return [
    tenantId,
    source.subjectType,
    source.metric,
    Math.min(...ranges.map((r) => r.fromMinute)),
    Math.max(...ranges.map((r) => r.toMinute)),
  ];
}
