import { Database, createSchemaDataSource, migrate } from '@agp/database';
import pino, { Logger } from 'pino';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { createJobRunsTable } from '../src/testing';

export const TEST_SCHEMA = 'jobs_test';

/** The table every service's schema has for its scheduled jobs (each service's own migration). */
export class CreateJobsTestTables1700000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createJobRunsTable(runner, TEST_SCHEMA);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.job_runs`);
  }
}

export const silentLogger: Logger = pino({ level: 'silent' });

/** One replica's connection to the test schema, migrated. */
export async function openTestSchema(url: string): Promise<Database> {
  const dataSource = createSchemaDataSource({
    url,
    schema: TEST_SCHEMA,
    entities: [],
    migrations: [CreateJobsTestTables1700000000000],
    poolSize: 4,
  });
  await dataSource.initialize();
  await migrate(dataSource, TEST_SCHEMA);
  return new Database(dataSource, TEST_SCHEMA);
}
