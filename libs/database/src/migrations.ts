import { createHash } from 'node:crypto';
import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';

import { APP_ROLE } from './tenant-rls';

/** A stable advisory-lock key per schema, so replicas starting together migrate one at a time. */
function lockKey(schema: string): string {
  return createHash('sha256').update(`agp:migrate:${schema}`).digest().readBigInt64BE(0).toString();
}

/** Safe to call from every replica at start and from the `migrate` command (D4). */
export async function migrate(dataSource: DataSource, schema: string): Promise<string[]> {
  // One process migrates one schema at a time: the embedded default's PGlite is one session that
  // every service's data source shares, and concurrent migrations there interleave and fail.
  const turn = migrations.then(() => migrateNow(dataSource, schema));
  migrations = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

let migrations: Promise<void> = Promise.resolve();

async function migrateNow(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const key = lockKey(schema);
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await ensureAppRole(runner);
    // On the lock's own connection: a pool of one must not wait for a second connection.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    await grantAppRole(runner, schema);
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    await runner.release();
  }
}

export async function revert(dataSource: DataSource, count = 1): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await dataSource.undoLastMigration({ transaction: 'each' });
  }
}

/** The application role must exist and the login user must be able to switch to it. */
async function ensureAppRole(runner: QueryRunner): Promise<void> {
  // Roles are cluster-wide: replicas and parallel test databases may race to create it.
  await runner.query(
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
         CREATE ROLE ${APP_ROLE} NOLOGIN;
       END IF;
     EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
     END $$`,
  );
  const rows = (await runner.query(
    `SELECT pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') AS member`,
  )) as Array<{ member: boolean }>;
  if (rows[0]?.member) {
    return;
  }
  await runner
    .query(`DO $$ BEGIN EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user); END $$`)
    .catch((error: unknown) => {
      throw new Error(
        `the database user cannot switch to role ${APP_ROLE} (GRANT ${APP_ROLE} TO <this user> as an administrator): ` +
          (error instanceof Error ? error.message : String(error)),
      );
    });
}

async function grantAppRole(runner: QueryRunner, schema: string): Promise<void> {
  await runner.query(`GRANT USAGE ON SCHEMA ${schema} TO ${APP_ROLE}`);
  await runner.query(
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${APP_ROLE}`,
  );
  await runner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${APP_ROLE}`);
}
