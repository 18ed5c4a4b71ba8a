import { createTestDatabase, TestDatabase } from '@agp/testing';
import { DataSource } from 'typeorm';

import { createSchemaDataSource } from './data-source';
import { enableTenantRls } from './tenant-rls';
import { findTablesWithoutForcedRls } from './tenant-rls-check';

describe(findTablesWithoutForcedRls.name, () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('rlscheck');
    dataSource = createSchemaDataSource({
      url: testDatabase.url,
      schema: 'public',
      entities: [],
      migrations: [],
    });
    await dataSource.initialize();
    await dataSource.query('CREATE SCHEMA svc_a');
    await dataSource.query('CREATE SCHEMA svc_b');
    await dataSource.query('CREATE SCHEMA elsewhere');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await testDatabase?.drop();
  });

  async function createTable(
    name: string,
    columns = 'tenant_id uuid NOT NULL, body text',
  ): Promise<void> {
    await dataSource.query(`CREATE TABLE ${name} (${columns})`);
  }

  it('should list every tenant-owned table that is not enabled, forced and covered by a policy', async () => {
    await createTable('svc_a.guarded');
    const runner = dataSource.createQueryRunner();
    await enableTenantRls(runner, 'svc_a.guarded');
    await runner.release();
    await createTable('svc_a.open');
    await createTable('svc_a.not_forced');
    await dataSource.query('ALTER TABLE svc_a.not_forced ENABLE ROW LEVEL SECURITY');
    await dataSource.query(`CREATE POLICY p ON svc_a.not_forced USING (true)`);
    await createTable('svc_b.no_policy');
    await dataSource.query('ALTER TABLE svc_b.no_policy ENABLE ROW LEVEL SECURITY');
    await dataSource.query('ALTER TABLE svc_b.no_policy FORCE ROW LEVEL SECURITY');
    await createTable('svc_b.not_tenant_owned', 'id uuid, body text');
    await createTable('elsewhere.open');
    await dataSource.query(
      'CREATE TABLE svc_b.events (tenant_id uuid NOT NULL, day date NOT NULL) PARTITION BY RANGE (day)',
    );
    const partitioned = dataSource.createQueryRunner();
    await enableTenantRls(partitioned, 'svc_b.events');
    await partitioned.release();
    await dataSource.query(
      "CREATE TABLE svc_b.events_2026 PARTITION OF svc_b.events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')",
    );

    const gaps = await findTablesWithoutForcedRls(dataSource, ['svc_a', 'svc_b']);

    expect(gaps).toEqual([
      {
        table: 'svc_a.not_forced',
        enabled: true,
        forced: false,
        hasPolicy: true,
        partitionOf: null,
      },
      { table: 'svc_a.open', enabled: false, forced: false, hasPolicy: false, partitionOf: null },
      {
        table: 'svc_b.events_2026',
        enabled: false,
        forced: false,
        hasPolicy: false,
        partitionOf: 'svc_b.events',
      },
      {
        table: 'svc_b.no_policy',
        enabled: true,
        forced: true,
        hasPolicy: false,
        partitionOf: null,
      },
    ]);
  });

  it('should list nothing when the schemas hold no tenant-owned table', async () => {
    expect(await findTablesWithoutForcedRls(dataSource, ['no_such_schema'])).toEqual([]);
  });
});
