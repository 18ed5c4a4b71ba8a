import { Injectable } from '@nestjs/common';
import { SubjectType } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { RollupMetric } from '../engine/rollup-counters';
import { QuarterPairs } from '../engine/baselines/history-dispersion';

const R = `${AUDIT_SCHEMA}.monitor_rollups`;

// M40: each hour row `r` in [$2, $3) of the tenant $1 and metrics $4, cut to its two pairs of
// quarters half an hour apart `q(a, b)`: running[15] with running[45] − running[30], running[30] −
// running[15] with running[60] − running[45] (M3), as floats.
const PAIRS_OF_ROWS = `CROSS JOIN LATERAL (VALUES
         (r.running[15]::float8, (r.running[45] - r.running[30])::float8),
         ((r.running[30] - r.running[15])::float8, (r.running[60] - r.running[45])::float8)
       ) AS q(a, b)
       WHERE r.tenant_id = $1 AND r.hour >= $2 AND r.hour < $3 AND r.metric = ANY($4::text[])`;

/** M40's two sums over pairs (squares of large counts overflow an integer). */
const PAIR_SUMS = `sum((q.a - q.b) ^ 2 - (q.a + q.b))::float8 AS excess,
              sum(2 * q.a * q.b)::float8 AS scale`;

export interface SeriesPairs extends QuarterPairs {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  day: number;
}

/** M45: one hour row's quarter pairs (two), keyed as `seriesKey` keys a series. */
export interface HourPairs {
  key: string;
  hour: number;
  excess: number;
  scale: number;
}

/** M40's one read of the lookback's hour rows, summed in the database to three figures a series. */
@Injectable()
export class HistoryDispersionRepository {
  // Per subject, metric and day (24 hours back from `to`), the sums of M40 over the quarters half
  // an hour apart of every hour row in [from, to): running[15] with running[45] − running[30],
  // running[30] − running[15] with running[60] − running[45] (M3), as floats (squares of large
  // counts overflow an integer).
  async quarterPairs(
    tx: Tx,
    tenantId: string,
    from: Date,
    to: Date,
    metrics: readonly RollupMetric[],
  ): Promise<SeriesPairs[]> {
    return tx.query(
      `SELECT r.subject_type AS "subjectType", r.subject_id AS "subjectId", r.metric,
              floor((extract(epoch FROM $3::timestamptz - r.hour) - 3600) / 86400)::int AS day,
              count(*)::int AS pairs,
              ${PAIR_SUMS}
       FROM ${R} r
       ${PAIRS_OF_ROWS}
       GROUP BY 1, 2, 3, 4`,
      [tenantId, from, to, metrics],
    );
  }

  // M45: each hour row's two quarter pairs in [from, to), summed as `quarterPairs` sums them (the
  // same SQL terms): what a day's figures add up from, hour by hour.
  async hourPairs(
    tx: Tx,
    tenantId: string,
    from: Date,
    to: Date,
    metrics: readonly RollupMetric[],
  ): Promise<HourPairs[]> {
    return tx.query(
      `SELECT r.subject_type || ':' || r.subject_id || ':' || r.metric AS key,
              (extract(epoch FROM r.hour) / 3600)::int AS hour,
              ${PAIR_SUMS}
       FROM ${R} r
       ${PAIRS_OF_ROWS}
       GROUP BY r.subject_type, r.subject_id, r.metric, r.hour`,
      [tenantId, from, to, metrics],
    );
  }
}
