import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/** traffic.md T113: a push configuration's last push and its task's end, so stale ones can go. */
export class AddPushConfigActivity1765530000000 implements MigrationInterface {
  name = 'AddPushConfigActivity1765530000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.a2a_push_configs
        ADD COLUMN last_push_at timestamptz,
        ADD COLUMN task_ended_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${RELAY_SCHEMA}.a2a_push_configs
        DROP COLUMN task_ended_at,
        DROP COLUMN last_push_at`);
  }
}
