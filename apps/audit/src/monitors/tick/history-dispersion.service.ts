import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { RollupMetric } from '../engine/rollup-counters';
import { QuarterPairs } from '../engine/baselines/history-dispersion';
import { HistoryDispersionRepository, HourPairs } from './history-dispersion.repository';

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

/** Immutable data a second replica reads alike from the database (M45, M16). */
interface PastHours {
  /** Epoch hours the entries cover: [fromHour, untilHour). */
  fromHour: number;
  untilHour: number;
  /** The series' keys, each once; `series[i]` is entry i's index among them. */
  keys: string[];
  indexOf: Map<string, number>;
  series: number[];
  hours: number[];
  excess: number[];
  scale: number[];
}

// M40: each series' quarter pairs per day (24 hours back from the tick's hour) over the lookback's
// whole hours before the tick's hour, computed once an hour per tenant (the minute ticks of the
// same hour share it) (M45).
@Injectable()
export class HistoryDispersionService {
  private readonly cache = new Map<string, { key: string; pairs: Map<string, QuarterPairs[]> }>();
  private readonly past = new Map<string, PastHours>();
  /** One computation at a time per tenant: two would both append the same past hours. */
  private readonly running = new Map<string, Promise<unknown>>();

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
    const previous = this.running.get(tenantId) ?? Promise.resolve();
    const next = previous.then(() => this.compute(tenantId, windowEnd, lookbackDays, metrics));
    this.running.set(
      tenantId,
      next.catch(() => undefined),
    );
    return next;
  }

  private async compute(
    tenantId: string,
    windowEnd: Date,
    lookbackDays: number,
    metrics: readonly RollupMetric[],
  ): Promise<Map<string, QuarterPairs[]>> {
    const toHour = Math.floor(windowEnd.getTime() / HOUR_MS);
    const fromHour = toHour - lookbackDays * DAY_HOURS;
    const midnight = Math.max(fromHour, Math.floor(toHour / DAY_HOURS) * DAY_HOURS);
    const sorted = [...metrics].sort();
    const key = `${toHour}|${lookbackDays}|${sorted.join(',')}`;
    const cached = this.cache.get(tenantId);
    if (cached?.key === key) {
      return cached.pairs;
    }
    const pastKey = `${tenantId}|${lookbackDays}|${sorted.join(',')}`;
    let past = this.past.get(pastKey);
    if (!past || fromHour < past.fromHour || fromHour > past.untilHour) {
      past = {
        fromHour,
        untilHour: fromHour,
        keys: [],
        indexOf: new Map(),
        series: [],
        hours: [],
        excess: [],
        scale: [],
      };
      this.past.set(pastKey, past);
    }
    const read = (from: number, to: number): Promise<HourPairs[]> =>
      this.database.inTenant(tenantId, (tx) =>
        this.repository.hourPairs(
          tx,
          tenantId,
          new Date(from * HOUR_MS),
          new Date(to * HOUR_MS),
          sorted,
        ),
      );
    if (past.untilHour < midnight) {
      // A day (or, after a start, the lookback's past days) became whole: read once, kept.
      const rows = await read(past.untilHour, midnight);
      keep(past, fromHour, rows);
      past.untilHour = midnight;
    }
    const today = toHour > midnight ? await read(midnight, toHour) : [];
    const pairs = new Map<string, QuarterPairs[]>();
    const add = (series: string, hour: number, excess: number, scale: number): void => {
      // Whole days back from the tick's hour, as M40's read counts them.
      const day = Math.floor((toHour - hour - 1) / DAY_HOURS);
      let days = pairs.get(series);
      if (!days) {
        days = [];
        pairs.set(series, days);
      }
      const sums = (days[day] ??= { pairs: 0, excess: 0, scale: 0 });
      // Each hour row is two pairs of quarters (M40).
      sums.pairs += 2;
      sums.excess += excess;
      sums.scale += scale;
    };
    for (let i = 0; i < past.hours.length; i += 1) {
      const hour = past.hours[i];
      if (hour >= fromHour && hour < midnight) {
        add(past.keys[past.series[i]], hour, past.excess[i], past.scale[i]);
      }
    }
    for (const row of today) {
      add(row.key, row.hour, row.excess, row.scale);
    }
    // Only the days with hour rows, as M40's read gives them (its consumer takes a median).
    for (const [series, days] of pairs) {
      pairs.set(
        series,
        days.filter((d) => d !== undefined),
      );
    }
    this.cache.set(tenantId, { key, pairs });
    return pairs;
  }
}

/** Appends `rows` to the past hours, leaving out the hours the lookback no longer reaches. */
function keep(past: PastHours, fromHour: number, rows: readonly HourPairs[]): void {
  if (past.fromHour < fromHour) {
    const kept = past.hours.flatMap((hour, i) => (hour >= fromHour ? [i] : []));
    past.series = kept.map((i) => past.series[i]);
    past.excess = kept.map((i) => past.excess[i]);
    past.scale = kept.map((i) => past.scale[i]);
    past.hours = kept.map((i) => past.hours[i]);
  }
  past.fromHour = Math.max(past.fromHour, fromHour);
  for (const row of rows) {
    let index = past.indexOf.get(row.key);
    if (index === undefined) {
      index = past.keys.push(row.key) - 1;
      past.indexOf.set(row.key, index);
    }
    past.series.push(index);
    past.hours.push(row.hour);
    past.excess.push(row.excess);
    past.scale.push(row.scale);
  }
}
