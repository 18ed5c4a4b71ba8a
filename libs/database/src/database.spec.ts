import { randomUUID } from 'node:crypto';

import { createTestDatabase, TestDatabase } from '@agp/testing';

import {
  TEST_SCHEMA,
  ownerLoginUrl,
  testSchemaDataSource,
} from '../test/support/database-test-schema';
import { Database, isPGliteVersion } from './database';
import { migrate } from './migrations';
import { queryNamed } from './named-statements';

describe(Database.name, () => {
  let testDatabase: TestDatabase;
  /** Pool of one: every transaction below reuses the same connection. */
  let sut: Database;
  let asSuperuser: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('database');
    const dataSource = testSchemaDataSource(await ownerLoginUrl(testDatabase), 1);
    await dataSource.initialize();
    await migrate(dataSource, TEST_SCHEMA);
    sut = new Database(dataSource, TEST_SCHEMA);
    const superuserSource = testSchemaDataSource(testDatabase.url, 1);
    await superuserSource.initialize();
    asSuperuser = new Database(superuserSource, TEST_SCHEMA);
  });

  afterAll(async () => {
    await sut?.close();
    await asSuperuser?.close();
    await testDatabase?.drop();
  });

  async function addNote(database: Database, tenantId: string, body: string): Promise<void> {
    await database.inTenant(tenantId, (tx) =>
      tx.query(`INSERT INTO ${TEST_SCHEMA}.notes (tenant_id, body) VALUES ($1, $2)`, [
        tenantId,
        body,
      ]),
    );
  }

  async function bodiesIn(database: Database, tenantId: string): Promise<string[]> {
    const rows: Array<{ body: string }> = await database.inTenant(tenantId, (tx) =>
      tx.query(`SELECT body FROM ${TEST_SCHEMA}.notes ORDER BY body`),
    );
    return rows.map((r) => r.body);
  }

  it("should never show another tenant's rows when the same pooled connection serves both tenants", async () => {
    const tenantA = randomUUID();
    const tenantB = randomUUID();

    await addNote(sut, tenantA, 'a1');
    const seenByB = await bodiesIn(sut, tenantB);
    const seenByA = await bodiesIn(sut, tenantA);
    const seenUnscoped: unknown[] = await sut.dataSource.transaction((tx) =>
      tx.query(`SELECT body FROM ${TEST_SCHEMA}.notes WHERE tenant_id = ANY($1::uuid[])`, [
        [tenantA, tenantB],
      ]),
    );

    expect(seenByB).toEqual([]);
    expect(seenByA).toEqual(['a1']);
    expect(seenUnscoped).toEqual([]);
  });

  it('should see every tenant when the work is system work', async () => {
    const tenantA = randomUUID();
    const tenantB = randomUUID();
    await addNote(sut, tenantA, 'system a');
    await addNote(sut, tenantB, 'system b');

    const rows: Array<{ body: string }> = await sut.asSystem((tx) =>
      tx.query(
        `SELECT body FROM ${TEST_SCHEMA}.notes WHERE tenant_id = ANY($1::uuid[]) ORDER BY body`,
        [[tenantA, tenantB]],
      ),
    );

    expect(rows.map((r) => r.body)).toEqual(['system a', 'system b']);
  });

  it("should refuse a write carrying another tenant's id when in a tenant's scope", async () => {
    const tenantA = randomUUID();
    const tenantB = randomUUID();

    const write = sut.inTenant(tenantA, (tx) =>
      tx.query(`INSERT INTO ${TEST_SCHEMA}.notes (tenant_id, body) VALUES ($1, 'smuggled')`, [
        tenantB,
      ]),
    );

    await expect(write).rejects.toThrow(/row-level security/);
    expect(await bodiesIn(sut, tenantB)).toEqual([]);
  });

  it("should refuse to move a row to another tenant when updating it in the owner's scope", async () => {
    const tenantA = randomUUID();
    const tenantB = randomUUID();
    await addNote(sut, tenantA, 'mine');

    const move = sut.inTenant(tenantA, (tx) =>
      tx.query(`UPDATE ${TEST_SCHEMA}.notes SET tenant_id = $1 WHERE tenant_id = $2`, [
        tenantB,
        tenantA,
      ]),
    );

    await expect(move).rejects.toThrow(/row-level security/);
    expect(await bodiesIn(sut, tenantA)).toEqual(['mine']);
  });

  it("should leave neither the tenant nor the role on the connection when a tenant's transaction ends", async () => {
    const tenantA = randomUUID();
    await addNote(sut, tenantA, 'then');
    await expect(
      sut.inTenant(tenantA, async () => {
        throw new Error('failed midway');
      }),
    ).rejects.toThrow('failed midway');

    const [state]: Array<{ tenant: string | null; role: string }> = await sut.dataSource.query(
      `SELECT nullif(current_setting('app.tenant_id', true), '') AS tenant, current_user AS role`,
    );

    expect(state).toEqual({ tenant: null, role: 'agp_test_owner' });
  });

  it("should isolate tenants when the login is a superuser, since a tenant's scope switches role", async () => {
    const tenantA = randomUUID();
    const tenantB = randomUUID();
    await addNote(asSuperuser, tenantA, 'super a');

    expect(await bodiesIn(asSuperuser, tenantB)).toEqual([]);
    expect(await bodiesIn(asSuperuser, tenantA)).toEqual(['super a']);
  });
  it('should commit one statement on its own, with no transaction around it, on PostgreSQL', async () => {
    const tenantId = randomUUID();

    const [scope] = await asSuperuser.commitStatement<Array<{ system: string | null }>>(
      `SELECT current_setting('app.system', true) AS system`,
      [],
    );
    await asSuperuser.commitStatement(
      `INSERT INTO ${TEST_SCHEMA}.notes (tenant_id, body) VALUES ($1, $2)`,
      [tenantId, 'bare'],
    );

    expect(await asSuperuser.isMultiplexedSession()).toBe(false);
    // A bare statement: asSystem would have set the system scope for its transaction.
    expect(scope.system ?? '').toBe('');
    // Committed: another pool sees it at once.
    expect(await bodiesIn(sut, tenantId)).toEqual(['bare']);
  });

  it('should prepare a hot statement once per PostgreSQL session, the scope included (F53)', async () => {
    const tenantId = randomUUID();
    await sut.isMultiplexedSession();
    const prepared = (): Promise<string[]> =>
      sut.inTenant(tenantId, async (tx) => {
        await queryNamed(tx, `SELECT count(*) FROM ${TEST_SCHEMA}.notes WHERE tenant_id = $1`, [
          tenantId,
        ]);
        const rows: Array<{ statement: string }> = await tx.query(
          `SELECT statement FROM pg_prepared_statements ORDER BY statement`,
        );
        return rows.map((row) => row.statement.replace(/\s+/g, ' '));
      });

    const first = await prepared();
    const second = await prepared();

    // The pool has one connection: both transactions ran on it, and the second prepared nothing.
    expect(first).toEqual(
      expect.arrayContaining([
        `SELECT count(*) FROM ${TEST_SCHEMA}.notes WHERE tenant_id = $1`,
        `SELECT set_config('role', $1, true), set_config($2, $3, true)`,
      ]),
    );
    expect(second).toEqual(first);
  });

  it('should answer a named statement whose column type a rolling migration changed, then send it as text (F53)', async () => {
    await sut.isMultiplexedSession();
    const table = `${TEST_SCHEMA}.widths`;
    await sut.dataSource.query(`CREATE TABLE ${table} (n integer)`);
    await sut.dataSource.query(`INSERT INTO ${table} VALUES (1)`);
    const read = (): Promise<Array<{ n: unknown }>> =>
      queryNamed(sut.dataSource.manager, `SELECT n FROM ${table}`, []);
    expect(await read()).toEqual([{ n: 1 }]);

    await sut.dataSource.query(`ALTER TABLE ${table} ALTER COLUMN n TYPE bigint`);

    expect(await read()).toEqual([{ n: '1' }]);
    expect(await sut.asSystem((tx) => queryNamed(tx, `SELECT n FROM ${table}`, []))).toEqual([
      { n: '1' },
    ]);
  });

  it('should tell the embedded PGlite from PostgreSQL by its version', () => {
    // What PGlite 0.5 answers to `SELECT version()`, and what the test server does.
    const pglite =
      'PostgreSQL 18.6 (PGlite 0.5.14) on wasm32-unknown-emscripten, compiled by emcc 6.0.5, 32-bit';
    const postgres = 'PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on x86_64-pc-linux-gnu, 64-bit';

    expect(isPGliteVersion(pglite)).toBe(true);
    expect(isPGliteVersion(postgres)).toBe(false);
  });
});
