import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { TEST_SERVER_URL, TestDatabase } from '@agp/testing';

import { createSchemaDataSource } from '../../src/data-source';
import { APP_ROLE, disableTenantRls, enableTenantRls } from '../../src/tenant-rls';

/** The schema the database specs use, in a database of their own (createTestDatabase). */
export const TEST_SCHEMA = 'database_test';

/** A tenant-owned table as a service migration creates it. */
export class CreateNotes1700000000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${TEST_SCHEMA}.notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        body text NOT NULL
      )`);
    await enableTenantRls(runner, `${TEST_SCHEMA}.notes`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await disableTenantRls(runner, `${TEST_SCHEMA}.notes`);
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.notes`);
  }
}

/** A second migration, so that revert can be seen to go back one step at a time. */
export class CreateTags1700000000002 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE ${TEST_SCHEMA}.tags (tenant_id uuid NOT NULL, name text NOT NULL)`,
    );
    await enableTenantRls(runner, `${TEST_SCHEMA}.tags`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.tags`);
  }
}

export const TEST_MIGRATIONS = [CreateNotes1700000000001, CreateTags1700000000002];

export function testSchemaDataSource(url: string, poolSize = 4): DataSource {
  return createSchemaDataSource({
    url,
    schema: TEST_SCHEMA,
    entities: [],
    migrations: TEST_MIGRATIONS,
    poolSize,
  });
}

async function asServerAdmin(database: string, statements: readonly string[]): Promise<void> {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${database}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const statement of statements) {
      await client.query(statement);
    }
  } finally {
    await client.end();
  }
}

/** Cluster-wide roles: parallel runs may race to create or grant, which is harmless. */
function tolerantly(statement: string): string {
  return `DO $$ BEGIN ${statement}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`;
}

function withUser(url: string, user: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = '';
  return parsed.toString();
}

/**
 * A login as production has it: not a superuser, no BYPASSRLS, owner of what its migrations
 * create, a member of the application role. Row-level security applies to it outside `inTenant`
 * too, because the tables FORCE it.
 */
export async function ownerLoginUrl(testDatabase: TestDatabase): Promise<string> {
  const owner = 'agp_test_owner';
  await asServerAdmin(testDatabase.name, [
    tolerantly(`CREATE ROLE ${APP_ROLE} NOLOGIN`),
    tolerantly(`CREATE ROLE ${owner} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE`),
    `DO $$ BEGIN GRANT ${APP_ROLE} TO ${owner}; EXCEPTION WHEN OTHERS THEN NULL; END $$`,
    `GRANT CREATE ON DATABASE ${testDatabase.name} TO ${owner}`,
  ]);
  return withUser(testDatabase.url, owner);
}

/** A login that may create schemas but is not a member of the application role. */
export async function outsiderLoginUrl(testDatabase: TestDatabase): Promise<string> {
  const outsider = 'agp_test_outsider';
  await asServerAdmin(testDatabase.name, [
    tolerantly(`CREATE ROLE ${APP_ROLE} NOLOGIN`),
    tolerantly(`CREATE ROLE ${outsider} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE`),
    `GRANT CREATE ON DATABASE ${testDatabase.name} TO ${outsider}`,
  ]);
  return withUser(testDatabase.url, outsider);
}
