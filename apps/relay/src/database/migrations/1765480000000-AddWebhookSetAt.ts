import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * W23: when an agent's webhook URL was set, so a webhook hears only what happened after it existed.
 * Webhooks set before this column existed keep hearing everything (their agent's creation time).
 */
export class AddWebhookSetAt1765480000000 implements MigrationInterface {
  name = 'AddWebhookSetAt1765480000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN webhook_set_at timestamptz`);
    await runner.query(
      `UPDATE ${s}.agents SET webhook_set_at = created_at WHERE webhook_url IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.agents DROP COLUMN webhook_set_at`);
  }
}
