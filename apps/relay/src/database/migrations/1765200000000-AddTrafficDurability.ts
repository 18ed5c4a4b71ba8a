import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * traffic.md T52: when a delivered request's records must be durable, per tenant: before the
 * request is forwarded (BEFORE_FORWARD, T1 and T39, the default) or before its answer reaches the
 * agent (BEFORE_ANSWER, the record's commit overlapping the upstream call).
 */
export class AddTrafficDurability1765200000000 implements MigrationInterface {
  name = 'AddTrafficDurability1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${RELAY_SCHEMA}.traffic_settings
        ADD COLUMN durability text NOT NULL DEFAULT 'BEFORE_FORWARD'
          CHECK (durability IN ('BEFORE_FORWARD', 'BEFORE_ANSWER'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.traffic_settings DROP COLUMN durability`);
  }
}
