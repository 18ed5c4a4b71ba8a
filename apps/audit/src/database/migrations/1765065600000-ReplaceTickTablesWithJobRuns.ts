import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'audit';

/**
 * F30: one table for the ticks of every scheduled job, `@agp/jobs`' `job_runs`, replaces the
 * checkpoint and retention jobs' one row per job and the monitors' one row per minute. What the old
 * tables held is the claims of past ticks, which nothing reads again.
 */
export class ReplaceTickTablesWithJobRuns1765065600000 implements MigrationInterface {
  name = 'ReplaceTickTablesWithJobRuns1765065600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${S}.monitor_ticks`);
    await runner.query(`DROP TABLE ${S}.job_runs`);
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
    await runner.query(
      `CREATE TABLE ${S}.job_runs (job text PRIMARY KEY, ran_at timestamptz NOT NULL)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.monitor_ticks (
        minute timestamptz PRIMARY KEY,
        replica text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        findings integer
      )`);
  }
}
