import { runMigrationRoundTrip } from '@agp/database';
import { createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from './data-source';

/**
 * D4: this service's real migrations go up and down cleanly, and guard every tenant-owned table
 * (`enableTenantRls`; a partition needs it too: a query naming a partition directly gets only the
 * partition's own policies, not its parent's).
 */
describe('audit migrations', () => {
  it('should create the tables with row-level security forced on each tenant-owned one, then remove them all when reverted', async () => {
    const testDatabase = await createTestDatabase('audit_migrations');
    try {
      const sut = await runMigrationRoundTrip(auditDataSourceOptions(testDatabase.url));

      expect(sut.applied).toHaveLength(sut.count);
      expect(sut.tablesAfterUp).toEqual(expect.arrayContaining(['inbox', 'migrations', 'outbox']));
      expect(sut.unguardedTables).toEqual([]);
      expect(sut.tablesAfterDown).toEqual(['migrations']);
      expect(sut.reapplied).toHaveLength(sut.count);
    } finally {
      await testDatabase.drop();
    }
  });
});
