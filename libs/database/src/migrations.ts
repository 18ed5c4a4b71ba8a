import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';

import { APP_ROLE } from './tenant-rls';

/** A stable advisory-lock key per schema, so replicas starting together migrate one at a time. */
function lockKey(schema: string): string {
  return createHash('sha256').update(`agp:migrate:${schema}`).digest().readBigInt64BE(0).toString();
}

/**
 * Creates the schema and the application role, then runs pending migrations (D4), under an
 * advisory lock. Safe to call from every replica at start and from the `migrate` command.
 */
export async function migrate(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const key = lockKey(schema);
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await ensureAppRole(dataSource);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    await grantAppRole(dataSource, schema);
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    await runner.release();
  }
}

/** Reverts the last `count` migrations (for tests and operators). */
export async function revert(dataSource: DataSource, count = 1): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await dataSource.undoLastMigration({ transaction: 'each' });
  }
}

async function ensureAppRole(dataSource: DataSource): Promise<void> {
  // Roles are cluster-wide: replicas and parallel test databases may race to create it.
  await dataSource.query(
    `DO $$ BEGIN
       CREATE ROLE ${APP_ROLE} NOLOGIN;
     EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
     END $$`,
  );
  await dataSource.query(
    `DO $$ BEGIN
       EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
     EXCEPTION WHEN OTHERS THEN NULL;
     END $$`,
  );
}

async function grantAppRole(dataSource: DataSource, schema: string): Promise<void> {
  await dataSource.query(`GRANT USAGE ON SCHEMA ${schema} TO ${APP_ROLE}`);
  await dataSource.query(
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${APP_ROLE}`,
  );
  await dataSource.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${APP_ROLE}`);
}
