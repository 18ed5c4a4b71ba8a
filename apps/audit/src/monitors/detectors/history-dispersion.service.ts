import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { RollupMetric } from '../rollups/rollup-counters';
import { seriesKey } from './detector-input';
import { QuarterPairs } from './history-dispersion';
import { HistoryDispersionRepository } from './history-dispersion.repository';
import { DAY_MS } from './time-window';

const HOUR_MS = 3_600_000;

/**
 * M40: each series' quarter pairs per day over the lookback's whole hours before the tick's hour, read once
 * an hour per tenant (a subject's burstiness over a week hardly moves in an hour; the minute ticks
 * of the same hour share the read), kept for the last hour read only.
 */
@Injectable()
export class HistoryDispersionService {
  private readonly cache = new Map<string, { key: string; pairs: Map<string, QuarterPairs[]> }>();

  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    private readonly repository: HistoryDispersionRepository,
  ) {}

  async pairsBefore(
    tenantId: string,
    windowEnd: Date,
    lookbackDays: number,
    metrics: readonly RollupMetric[],
  ): Promise<Map<string, QuarterPairs[]>> {
    const to = new Date(Math.floor(windowEnd.getTime() / HOUR_MS) * HOUR_MS);
    const from = new Date(to.getTime() - lookbackDays * DAY_MS);
    const sorted = [...metrics].sort();
    const key = `${to.toISOString()}|${lookbackDays}|${sorted.join(',')}`;
    const cached = this.cache.get(tenantId);
    if (cached?.key === key) {
      return cached.pairs;
    }
    const rows = await this.database.inTenant(tenantId, (tx) =>
      this.repository.quarterPairs(tx, tenantId, from, to, sorted),
    );
    const pairs = new Map<string, QuarterPairs[]>();
    for (const row of rows) {
      const key = seriesKey(row.subjectType, row.subjectId, row.metric);
      const days = pairs.get(key) ?? [];
      days.push({ pairs: row.pairs, excess: row.excess, scale: row.scale });
      pairs.set(key, days);
    }
    this.cache.set(tenantId, { key, pairs });
    return pairs;
  }
}
