import { randomUUID } from 'node:crypto';
import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from '../../database/data-source';
import { HourRow, RollupsRepository } from '../rollups/rollups.repository';
import { quarterPairsOf } from '../engine/baselines/history-dispersion';
import { HistoryDispersionRepository } from './history-dispersion.repository';

const HOUR_MS = 3_600_000;

/** M40's read on a real audit schema: the database's sums are the pure function's. */
describe(HistoryDispersionRepository.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let sut: HistoryDispersionRepository;
  const rollups = new RollupsRepository();
  const start = new Date('2026-03-02T00:00:00Z');

  beforeAll(async () => {
    testDatabase = await createTestDatabase('audit_history_dispersion_repo');
    const options = auditDataSourceOptions(testDatabase.url);
    const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
    await dataSource.initialize();
    await migrate(dataSource, options.schema);
    database = new Database(dataSource, options.schema);
    sut = new HistoryDispersionRepository();
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  /** An hour row whose four quarters hold these counts, spread over their minutes. */
  function hourRow(subjectId: string, hour: number, quarters: number[]): HourRow {
    const minutes = new Array<number>(60).fill(0);
    quarters.forEach((n, q) => (minutes[q * 15 + (hour % 15)] = n));
    return {
      hour: new Date(start.getTime() + hour * HOUR_MS),
      subjectType: 'AGENT',
      subjectId,
      metric: 'REQUESTS',
      minutes,
    };
  }

  it('should sum the quarter pairs of the hours in range per day, series and tenant', async () => {
    const tenantId = randomUUID();
    const other = randomUUID();
    const agent = randomUUID();
    const earlier = [
      [3, 9, 1, 4],
      [0, 12, 7, 7],
      [20, 2, 5, 0],
    ];
    const lastDay = [8, 1, 8, 30];
    await database.inTenant(tenantId, (tx) =>
      rollups.addCounts(tx, tenantId, [
        ...earlier.map((q, hour) => hourRow(agent, hour, q)),
        hourRow(agent, 26, lastDay),
        // At the range's end: left out.
        hourRow(agent, 27, [50, 0, 50, 0]),
      ]),
    );
    await database.inTenant(other, (tx) =>
      rollups.addCounts(tx, other, [hourRow(randomUUID(), 1, [50, 0, 50, 0])]),
    );

    const rows = await database.inTenant(tenantId, (tx) =>
      sut.quarterPairs(tx, tenantId, start, new Date(start.getTime() + 27 * HOUR_MS), ['REQUESTS']),
    );

    // Day 0 is the last 24 hours before the range's end (hour 26), day 1 the 24 before (0–2).
    const series = { subjectType: 'AGENT', subjectId: agent, metric: 'REQUESTS' };
    expect([...rows].sort((a, b) => a.day - b.day)).toEqual([
      { ...series, day: 0, ...quarterPairsOf([lastDay]) },
      { ...series, day: 1, ...quarterPairsOf(earlier) },
    ]);
  });
});
