import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * LIVE evaluation packs (issue 39 § 3, governance.md G19, G22): the sandbox doubles a pack's LIVE
 * runs reach in place of its targets' own upstreams (`[{targetType, targetId, url | doubleId}]`),
 * and the execution mode of its SCHEDULE runs; a running run's heartbeat (G20), so a long LIVE
 * run is not taken for one whose relay stopped.
 */
export class AddEvaluationPackLiveDoubles1765450000000 implements MigrationInterface {
  name = 'AddEvaluationPackLiveDoubles1765450000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${RELAY_SCHEMA}.evaluation_packs
        ADD COLUMN live_doubles jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN schedule_execution_mode text NOT NULL DEFAULT 'SIMULATED'
          CHECK (schedule_execution_mode IN ('SIMULATED', 'LIVE'))`);
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.evaluation_runs ADD COLUMN heartbeat_at timestamptz`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.evaluation_runs DROP COLUMN heartbeat_at`);
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.evaluation_packs DROP COLUMN schedule_execution_mode, DROP COLUMN live_doubles`,
    );
  }
}
