import { Database } from '@agp/database';
import { createTestDatabase, TestDatabase } from '@agp/testing';

import { TEST_SCHEMA, openTestSchema, silentLogger } from '../test/support/messaging-test-schema';
import { InboxPruner } from './inbox-pruner';

describe(InboxPruner.name, () => {
  let testDatabase: TestDatabase;
  let replicaA: Database;
  let replicaB: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('inbox_pruner');
    replicaA = await openTestSchema(testDatabase.url);
    replicaB = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await testDatabase?.drop();
  });

  async function insertRows(count: number, ageDays: number): Promise<void> {
    await replicaA.asSystem((tx) =>
      tx.query(
        `INSERT INTO ${TEST_SCHEMA}.inbox (consumer, event_id, processed_at)
         SELECT 'svc-orders', gen_random_uuid(), now() - make_interval(days => $2) FROM generate_series(1, $1)`,
        [count, ageDays],
      ),
    );
  }

  async function ages(): Promise<Record<string, number>> {
    const rows: Array<{ days: number; count: number }> = await replicaA.asSystem((tx) =>
      tx.query(
        `SELECT extract(day FROM now() - processed_at)::int AS days, count(*)::int AS count FROM ${TEST_SCHEMA}.inbox GROUP BY 1`,
      ),
    );
    return Object.fromEntries(rows.map((row) => [String(row.days), row.count]));
  }

  it('should delete the rows older than the retention, in batches, and keep the others', async () => {
    await insertRows(2_500, 9);
    await insertRows(300, 7);
    await insertRows(200, 0);

    const deleted = await new InboxPruner(replicaA, silentLogger, { batchSize: 1_000 }).prune();

    expect(deleted).toBe(2_500);
    expect(await ages()).toEqual({ '7': 300, '0': 200 });
  });

  it('should let one replica prune at a time when two start together', async () => {
    await insertRows(3_000, 30);
    const [a, b] = await Promise.all([
      new InboxPruner(replicaA, silentLogger, { batchSize: 500 }).prune(),
      new InboxPruner(replicaB, silentLogger, { batchSize: 500 }).prune(),
    ]);
    expect(a + b).toBe(3_000);
    expect(await ages()).toEqual({ '7': 300, '0': 200 });
  });
});
