import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';

/** F30: the ticks of tenant-auth's scheduled jobs (`@agp/jobs`), one row per job and interval. */
export class CreateJobRunsTable1765065600000 implements MigrationInterface {
  name = 'CreateJobRunsTable1765065600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.job_runs (
        job text NOT NULL,
        slot timestamptz NOT NULL,
        replica text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        PRIMARY KEY (job, slot)
      )`);
    await runner.query(
      `CREATE INDEX job_runs_running ON ${S}.job_runs (job) WHERE finished_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${S}.job_runs`);
  }
}
