import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;

/**
 * M25: a mute that runs out by itself records `MONITOR_UNMUTED` once. `expiry_recorded_at` says the
 * event is written; the partial index serves the tick's sweep for mutes ended and not yet recorded.
 */
export class AddMuteExpiryRecorded1763802500000 implements MigrationInterface {
  name = 'AddMuteExpiryRecorded1763802500000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.monitor_mutes ADD COLUMN expiry_recorded_at timestamptz`);
    await runner.query(
      `CREATE INDEX monitor_mutes_expiring ON ${S}.monitor_mutes (ends_at)
         WHERE unmuted_at IS NULL AND expiry_recorded_at IS NULL AND ends_at IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ${S}.monitor_mutes_expiring`);
    await runner.query(`ALTER TABLE ${S}.monitor_mutes DROP COLUMN expiry_recorded_at`);
  }
}
