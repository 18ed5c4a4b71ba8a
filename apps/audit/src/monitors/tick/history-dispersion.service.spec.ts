import { randomUUID } from 'node:crypto';
import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from '../../database/data-source';
import { RollupMetric } from '../engine/rollup-counters';
import { HourRow, RollupsRepository } from '../rollups/rollups.repository';
import { seriesKey } from '../engine/detectors/detector-input';
import { QuarterPairs } from '../engine/baselines/history-dispersion';
import { HistoryDispersionRepository } from './history-dispersion.repository';
import { HistoryDispersionService } from './history-dispersion.service';

const HOUR_MS = 3_600_000;
const LOOKBACK_DAYS = 7;
const METRICS: readonly RollupMetric[] = ['INVOCATIONS', 'REQUESTS'];

/** Each series' days as comparable data (the days' order is not part of the answer). */
function plain(pairs: Map<string, QuarterPairs[]>): Record<string, string[]> {
  return Object.fromEntries(
    [...pairs.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, days]) => [key, days.map((d) => JSON.stringify(d)).sort()]),
  );
}

/**
 * M45: the quarter pairs kept from past days and read since midnight are M40's read over the
 * whole lookback, at every hour of two days, across midnights and back in time, and the hours
 * read after the first are only those since midnight (and a day that became whole, once).
 */
describe(HistoryDispersionService.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const repository = new HistoryDispersionRepository();
  const tenantId = randomUUID();
  const start = new Date('2026-03-02T00:00:00Z');

  beforeAll(async () => {
    testDatabase = await createTestDatabase('audit_history_dispersion_service');
    const options = auditDataSourceOptions(testDatabase.url);
    const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
    await dataSource.initialize();
    await migrate(dataSource, options.schema);
    database = new Database(dataSource, options.schema);
    let seed = 5;
    const random = (n: number): number => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed % n;
    };
    const subjects = Array.from({ length: 6 }, () => randomUUID());
    const rows: HourRow[] = [];
    // Ten days of hour rows, most hours of most subjects, bursty quarters now and then.
    for (let hour = 0; hour < 10 * 24; hour += 1) {
      for (const [i, subjectId] of subjects.entries()) {
        for (const metric of [...METRICS, 'BLOCKS' as RollupMetric]) {
          if (random(10) < 2 + i) {
            const minutes = Array.from({ length: 60 }, () =>
              random(20) === 0 ? 5 + random(30) : random(3),
            );
            rows.push({
              hour: new Date(start.getTime() + hour * HOUR_MS),
              subjectType: i % 2 ? 'AGENT' : 'USER',
              subjectId,
              metric,
              minutes,
            });
          }
        }
      }
    }
    await database.inTenant(tenantId, (tx) =>
      new RollupsRepository().addCounts(tx, tenantId, rows),
    );
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  /** M40's one read of the whole lookback, as the service answered before M45. */
  async function wholeRead(windowEnd: Date): Promise<Map<string, QuarterPairs[]>> {
    const to = new Date(Math.floor(windowEnd.getTime() / HOUR_MS) * HOUR_MS);
    const from = new Date(to.getTime() - LOOKBACK_DAYS * 86_400_000);
    const rows = await database.inTenant(tenantId, (tx) =>
      repository.quarterPairs(tx, tenantId, from, to, [...METRICS].sort()),
    );
    const pairs = new Map<string, QuarterPairs[]>();
    for (const row of rows) {
      const key = seriesKey(row.subjectType, row.subjectId, row.metric);
      pairs.set(key, [
        ...(pairs.get(key) ?? []),
        { pairs: row.pairs, excess: row.excess, scale: row.scale },
      ]);
    }
    return pairs;
  }

  it('should give at every hour what M40 read over the whole lookback, reading only the hours since midnight', async () => {
    const read: Array<[number, number]> = [];
    const counting = new HistoryDispersionRepository();
    const hourPairs = counting.hourPairs.bind(counting);
    counting.hourPairs = (tx, tenant, from, to, metrics) => {
      read.push([from.getTime() / HOUR_MS, to.getTime() / HOUR_MS]);
      return hourPairs(tx, tenant, from, to, metrics);
    };
    const sut = new HistoryDispersionService(database, counting);
    const firstHour = start.getTime() / HOUR_MS + 8 * 24 - 3;
    // From 21:00 on day 8 to 03:00 on day 10, at minute :17, then back to a day already passed.
    const hours = [
      ...Array.from({ length: 31 }, (_, h) => firstHour + h),
      firstHour + 2,
      firstHour + 30,
    ];
    for (const [i, hour] of hours.entries()) {
      const windowEnd = new Date(hour * HOUR_MS + 17 * 60_000);
      read.length = 0;
      const answer = await sut.pairsBefore(tenantId, windowEnd, LOOKBACK_DAYS, METRICS);
      // A second tick of the same hour reads nothing.
      expect(await sut.pairsBefore(tenantId, windowEnd, LOOKBACK_DAYS, METRICS)).toBe(answer);
      const label = { hour: hour % 24, i };
      expect({ ...label, pairs: plain(answer) }).toEqual({
        ...label,
        pairs: plain(await wholeRead(windowEnd)),
      });
      const midnight = Math.floor(hour / 24) * 24;
      if (i > 0 && i < hours.length - 2) {
        // Only since midnight, and the day before it once, when it became whole (at 00:00).
        const expected: Array<[number, number]> =
          hour === midnight ? [[midnight - 24, midnight]] : [];
        expect({ ...label, read }).toEqual({
          ...label,
          read: [...expected, ...(hour > midnight ? [[midnight, hour] as [number, number]] : [])],
        });
      }
    }
    expect(Object.keys(plain(await wholeRead(new Date(firstHour * HOUR_MS)))).length).toBe(12);
  });
});
