import { createTestDatabase, TestDatabase } from '@agp/testing';
import { DataSource } from 'typeorm';

import {
  containsPattern,
  isRetryableSqlError,
  isUniqueViolation,
  returning,
  saveRow,
  sqlState,
} from './sql';

describe('sql helpers', () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('database_sql_helpers');
    dataSource = new DataSource({ type: 'postgres', url: testDatabase.url });
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE names (name text PRIMARY KEY)`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await testDatabase.drop();
  });

  it('should tell a unique violation from any other failure, as TypeORM throws them', async () => {
    await dataSource.query(`INSERT INTO names VALUES ('a')`);
    const duplicate = await dataSource
      .query(`INSERT INTO names VALUES ('a')`)
      .catch((e: unknown) => e);
    const missing = await dataSource
      .query(`INSERT INTO names VALUES (NULL)`)
      .catch((e: unknown) => e);

    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(missing)).toBe(false);
    expect(isRetryableSqlError(duplicate)).toBe(false);
  });

  it('should call serialization failures, deadlocks and lost connections retryable, and nothing else', () => {
    expect(isRetryableSqlError(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(true);
    expect(isRetryableSqlError({ driverError: { code: '40001' } })).toBe(true);
    expect(isRetryableSqlError({ code: '08006' })).toBe(true);
    expect(isRetryableSqlError({ code: '22P02' })).toBe(false);
    expect(isRetryableSqlError(new Error('no code'))).toBe(false);
    expect(sqlState(null)).toBeUndefined();
  });

  it('should answer the rows of an UPDATE … RETURNING', async () => {
    const rows = await returning(
      dataSource,
      `UPDATE names SET name = name || '!' WHERE name = $1 RETURNING name`,
      ['a'],
    );

    expect(rows).toEqual([{ name: 'a!' }]);
  });

  it('should match search text literally, wildcards included', async () => {
    await dataSource.query(`INSERT INTO names VALUES ('50%_off'), ('500 off')`);
    const rows: Array<{ name: string }> = await dataSource.query(
      `SELECT name FROM names WHERE name ILIKE $1`,
      [containsPattern('0%_')],
    );

    expect(rows.map((row) => row.name)).toEqual(['50%_off']);
  });
});

describe(saveRow.name, () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;
  const table = 'things';
  const save = (values: Record<string, unknown>) =>
    saveRow(dataSource, table, values, { key: ['id'], isVersioned: true });

  beforeAll(async () => {
    testDatabase = await createTestDatabase('database_save_row');
    dataSource = new DataSource({ type: 'postgres', url: testDatabase.url });
    await dataSource.initialize();
    await dataSource.query(
      `CREATE TABLE things (id int PRIMARY KEY, name text UNIQUE, tags text[] NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now(), revision int NOT NULL DEFAULT 1)`,
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
    await testDatabase.drop();
  });

  it('should insert, then raise the revision only when a value really changes', async () => {
    const inserted = await save({ id: 1, name: 'a', tags: ['x'] });
    const unchanged = await save({ id: 1, name: 'a', tags: ['x'] });
    const renamed = await save({ id: 1, name: 'b', tags: ['x'] });

    expect([inserted.revision, unchanged.revision, renamed.revision]).toEqual([1, 1, 2]);
    expect(renamed.name).toBe('b');
  });

  it('should leave a clash on another unique column to the caller as a unique violation', async () => {
    await save({ id: 2, name: 'c', tags: [] });
    const clash = await save({ id: 3, name: 'c', tags: [] }).catch((error: unknown) => error);

    expect(isUniqueViolation(clash)).toBe(true);
  });
});
