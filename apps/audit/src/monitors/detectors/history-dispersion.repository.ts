import { Injectable } from '@nestjs/common';
import { SubjectType } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { RollupMetric } from '../rollups/rollup-counters';
import { QuarterPairs } from './history-dispersion';

const R = `${AUDIT_SCHEMA}.monitor_rollups`;

export interface SeriesPairs extends QuarterPairs {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  /** Whole days back from the read's end: 0 for its last 24 hours. */
  day: number;
}

/** M40's one read of the lookback's hour rows, summed in the database to three figures a series. */
@Injectable()
export class HistoryDispersionRepository {
  /**
   * Per subject, metric and day (24 hours back from `to`), the sums of M40 over the quarters half an hour apart of every hour row
   * in [from, to): running[15] with running[45] − running[30], running[30] − running[15] with
   * running[60] − running[45] (M3), as floats (squares of large counts overflow an integer).
   */
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
              sum((q.a - q.b) ^ 2 - (q.a + q.b))::float8 AS excess,
              sum(2 * q.a * q.b)::float8 AS scale
       FROM ${R} r
       CROSS JOIN LATERAL (VALUES
         (r.running[15]::float8, (r.running[45] - r.running[30])::float8),
         ((r.running[30] - r.running[15])::float8, (r.running[60] - r.running[45])::float8)
       ) AS q(a, b)
       WHERE r.tenant_id = $1 AND r.hour >= $2 AND r.hour < $3 AND r.metric = ANY($4::text[])
       GROUP BY 1, 2, 3, 4`,
      [tenantId, from, to, metrics],
    );
  }
}
