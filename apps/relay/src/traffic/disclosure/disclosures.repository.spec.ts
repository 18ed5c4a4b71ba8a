import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../../test/support/migrated-relay-database';
import { DISCLOSURE_RETENTION_MS, DisclosureRetentionJob } from './disclosure-retention.job';
import { DisclosuresRepository } from './disclosures.repository';

/** traffic.md T71 on a real relay schema: one row per conversation, per tenant, forgotten late. */
describe(DisclosuresRepository.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const sut = new DisclosuresRepository();
  const tenantA = randomUUID();
  const tenantB = randomUUID();
  const agentId = randomUUID();

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_ai_disclosures');
    database = relay.database;
  });

  afterAll(() => relay?.close());

  const isDisclosed = (tenantId: string, key: string): Promise<boolean> =>
    database.inTenant(tenantId, (tx) => sut.isDisclosed(tx, tenantId, key));

  it('should know a conversation told once, a second disclosure changing nothing', async () => {
    const key = `channel:${randomUUID()}:thread-1`;

    const before = await isDisclosed(tenantA, key);
    await database.inTenant(tenantA, (tx) => sut.markDisclosed(tx, tenantA, key, agentId));
    await database.inTenant(tenantA, (tx) => sut.markDisclosed(tx, tenantA, key, agentId));

    expect(before).toBe(false);
    expect(await isDisclosed(tenantA, key)).toBe(true);
    const rows: unknown[] = await database.asSystem((tx) =>
      tx.query(`SELECT 1 FROM relay.ai_disclosures WHERE conversation_key = $1`, [key]),
    );
    expect(rows).toHaveLength(1);
  });

  it('should not let another tenant see or share a conversation with the same key', async () => {
    const key = `a2a:${randomUUID()}:person:ctx`;
    await database.inTenant(tenantA, (tx) => sut.markDisclosed(tx, tenantA, key, agentId));

    const seenByB = await isDisclosed(tenantB, key);
    const seenByBUnderA = await database.inTenant(tenantB, (tx) =>
      sut.isDisclosed(tx, tenantA, key),
    );

    expect(seenByB).toBe(false);
    expect(seenByBUnderA).toBe(false);
  });

  it('should forget disclosures past the retention and keep recent ones', async () => {
    const job = new DisclosureRetentionJob(database, sut);
    const oldKey = `channel:${randomUUID()}:old`;
    const recentKey = `channel:${randomUUID()}:recent`;
    await database.inTenant(tenantA, async (tx) => {
      await sut.markDisclosed(tx, tenantA, oldKey, agentId);
      await sut.markDisclosed(tx, tenantA, recentKey, agentId);
      await tx.query(
        `UPDATE relay.ai_disclosures SET disclosed_at = now() - make_interval(secs => $2)
          WHERE conversation_key = $1`,
        [oldKey, (DISCLOSURE_RETENTION_MS + 60_000) / 1000],
      );
    });

    const removed = await job.tick();

    expect(removed).toBe(1);
    expect(await isDisclosed(tenantA, oldKey)).toBe(false);
    expect(await isDisclosed(tenantA, recentKey)).toBe(true);
  });
});
