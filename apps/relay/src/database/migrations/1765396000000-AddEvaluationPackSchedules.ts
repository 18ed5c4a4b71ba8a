import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Scheduled pack runs (issue 39 § 3, governance.md G13, G14): a pack's cron `schedule`, when it is
 * next due (`next_run_at`, the scheduler's claim), and whether a failing run raises an alert.
 */
export class AddEvaluationPackSchedules1765396000000 implements MigrationInterface {
  name = 'AddEvaluationPackSchedules1765396000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.evaluation_packs
        ADD COLUMN schedule text,
        ADD COLUMN next_run_at timestamptz,
        ADD COLUMN alert_on_failure boolean NOT NULL DEFAULT false`);
    await runner.query(
      `CREATE INDEX evaluation_packs_due ON ${s}.evaluation_packs (next_run_at) WHERE schedule IS NOT NULL AND enabled`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`DROP INDEX ${s}.evaluation_packs_due`);
    await runner.query(`
      ALTER TABLE ${s}.evaluation_packs
        DROP COLUMN alert_on_failure, DROP COLUMN next_run_at, DROP COLUMN schedule`);
  }
}
