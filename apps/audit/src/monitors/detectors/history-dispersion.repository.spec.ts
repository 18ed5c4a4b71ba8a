import { randomUUID } from 'node:crypto';
import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from '../../database/data-source';
import { HourRow, RollupsRepository } from '../rollups/rollups.repository';
import { quarterPairsOf } from './history-dispersion';
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

  it('should sum the quarter pairs of the hours in range, per series and tenant only', async () => {
    const tenantId = randomUUID();
    const other = randomUUID();
    const agent = randomUUID();
    const quarters = [
      [3, 9, 1, 4],
      [0, 12, 7, 7],
      [20, 2, 5, 0],
      [8, 8, 8, 8],
    ];
    await database.inTenant(tenantId, (tx) =>
      rollups.addCounts(
        tx,
        tenantId,
        quarters.map((q, hour) => hourRow(agent, hour, q)),
      ),
    );
    await database.inTenant(other, (tx) =>
      rollups.addCounts(tx, other, [hourRow(randomUUID(), 1, [50, 0, 50, 0])]),
    );

    // The first three hours: the fourth is at the range's end, excluded.
    const rows = await database.inTenant(tenantId, (tx) =>
      sut.quarterPairs(tx, tenantId, start, new Date(start.getTime() + 3 * HOUR_MS), ['REQUESTS']),
    );

    expect(rows).toEqual([
      {
        subjectType: 'AGENT',
        subjectId: agent,
        metric: 'REQUESTS',
        ...quarterPairsOf(quarters.slice(0, 3)),
      },
    ]);
  });
});
