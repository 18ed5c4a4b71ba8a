import { createSchemaDataSource, findTablesWithoutForcedRls, migrate, revert } from '@agp/database';
import { createTestDatabase, TestDatabase } from '@agp/testing';
import { DataSource } from 'typeorm';

import { tenant_authDataSourceOptions } from './data-source';
import { TENANT_AUTH_SCHEMA } from './tokens';

/**
 * D4: this service's real migrations go up and down cleanly, and guard every tenant-owned table
 * (`enableTenantRls`; a partition needs it too: a query naming a partition directly gets only the
 * partition's own policies, not its parent's).
 */
describe('tenant-auth migrations', () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('tenant-auth_migrations');
    dataSource = createSchemaDataSource(tenant_authDataSourceOptions(testDatabase.url));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await testDatabase?.drop();
  });

  async function tables(): Promise<string[]> {
    const rows: Array<{ name: string }> = await dataSource.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [TENANT_AUTH_SCHEMA],
    );
    return rows.map((r) => r.name);
  }

  it('should create the tables with row-level security forced on each tenant-owned one, then remove them all when reverted', async () => {
    const count = dataSource.migrations.length;

    const applied = await migrate(dataSource, TENANT_AUTH_SCHEMA);
    const created = await tables();
    const gaps = await findTablesWithoutForcedRls(dataSource, [TENANT_AUTH_SCHEMA]);
    await revert(dataSource, count);
    const left = await tables();
    const reapplied = await migrate(dataSource, TENANT_AUTH_SCHEMA);

    expect(applied).toHaveLength(count);
    expect(created).toEqual(expect.arrayContaining(['inbox', 'migrations', 'outbox']));
    expect(gaps).toEqual([]);
    expect(left).toEqual(['migrations']);
    expect(reapplied).toHaveLength(count);
  });
});
