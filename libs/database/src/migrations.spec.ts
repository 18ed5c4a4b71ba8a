import { createTestDatabase, TestDatabase } from '@agp/testing';
import { DataSource } from 'typeorm';

import {
  TEST_SCHEMA,
  outsiderLoginUrl,
  ownerLoginUrl,
  testSchemaDataSource,
} from '../test/support/database-test-schema';
import { migrate, revert } from './migrations';
import { APP_ROLE } from './tenant-rls';

describe(migrate.name, () => {
  let testDatabase: TestDatabase;
  const dataSources: DataSource[] = [];

  beforeEach(async () => {
    testDatabase = await createTestDatabase('migrations');
  });

  afterEach(async () => {
    for (const dataSource of dataSources.splice(0)) {
      await dataSource.destroy();
    }
    await testDatabase.drop();
  });

  async function open(url: string, poolSize = 2): Promise<DataSource> {
    const dataSource = testSchemaDataSource(url, poolSize);
    await dataSource.initialize();
    dataSources.push(dataSource);
    return dataSource;
  }

  async function tablesOf(dataSource: DataSource): Promise<string[]> {
    const rows: Array<{ name: string }> = await dataSource.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [TEST_SCHEMA],
    );
    return rows.map((r) => r.name);
  }

  it('should create the schema and apply every migration once when run twice', async () => {
    const dataSource = await open(testDatabase.url);

    const first = await migrate(dataSource, TEST_SCHEMA);
    const second = await migrate(dataSource, TEST_SCHEMA);

    expect(first).toEqual(['CreateNotes1700000000001', 'CreateTags1700000000002']);
    expect(second).toEqual([]);
    expect(await tablesOf(dataSource)).toEqual(['migrations', 'notes', 'tags']);
  });

  it('should apply the migrations once when replicas start together', async () => {
    const replicas = await Promise.all([
      open(testDatabase.url),
      open(testDatabase.url),
      open(testDatabase.url),
    ]);

    const applied = await Promise.all(
      replicas.map((dataSource) => migrate(dataSource, TEST_SCHEMA)),
    );

    expect(applied.flat().sort()).toEqual(['CreateNotes1700000000001', 'CreateTags1700000000002']);
  });

  it('should take the migrations back one at a time when reverted', async () => {
    const dataSource = await open(testDatabase.url);
    await migrate(dataSource, TEST_SCHEMA);

    await revert(dataSource);
    const afterOne = await tablesOf(dataSource);
    await revert(dataSource);
    const afterTwo = await tablesOf(dataSource);
    const reapplied = await migrate(dataSource, TEST_SCHEMA);

    expect(afterOne).toEqual(['migrations', 'notes']);
    expect(afterTwo).toEqual(['migrations']);
    expect(reapplied).toEqual(['CreateNotes1700000000001', 'CreateTags1700000000002']);
  });

  it('should migrate with a pool of one connection when the login is not a superuser', async () => {
    const dataSource = await open(await ownerLoginUrl(testDatabase), 1);

    await migrate(dataSource, TEST_SCHEMA);

    const [privileges]: Array<{ select: boolean; insert: boolean }> = await dataSource.query(
      `SELECT has_table_privilege($1, $2, 'SELECT') AS select, has_table_privilege($1, $2, 'INSERT') AS insert`,
      [APP_ROLE, `${TEST_SCHEMA}.notes`],
    );
    expect(privileges).toEqual({ select: true, insert: true });
  });

  it('should stop with the remedy named when the login cannot switch to the application role', async () => {
    const dataSource = await open(await outsiderLoginUrl(testDatabase));

    await expect(migrate(dataSource, TEST_SCHEMA)).rejects.toThrow(`GRANT ${APP_ROLE} TO`);
  });
});
