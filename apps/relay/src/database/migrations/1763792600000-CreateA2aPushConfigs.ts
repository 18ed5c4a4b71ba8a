import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * A2A pushes through the relay (issue 30 § 4, traffic.md T40–T44): each push configuration a
 * calling agent gives a target agent, kept by the relay, which hands the target its own callback
 * (`/relay/a2a-push/{id}`) and token instead. The caller's URL is kept as given; its token and
 * authentication are sealed (D37); of the relay's token only a SHA-256 digest is kept. A push
 * judged deliverable is a webhook delivery (D19) to the caller's URL, so deliveries may name
 * their own URL and (sealed) extra headers instead of the agent's webhook URL.
 */
export class CreateA2aPushConfigs1763792600000 implements MigrationInterface {
  name = 'CreateA2aPushConfigs1763792600000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.a2a_push_configs (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        caller_id uuid NOT NULL,
        target_id uuid NOT NULL,
        task_id text,
        config_id text,
        url text NOT NULL,
        credentials_ciphertext text,
        token_sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX a2a_push_configs_task ON ${s}.a2a_push_configs (tenant_id, caller_id, target_id, task_id)`,
    );
    await enableTenantRls(runner, `${s}.a2a_push_configs`);
    await runner.query(`
      ALTER TABLE ${s}.webhook_deliveries
        ADD COLUMN url text,
        ADD COLUMN headers_ciphertext text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.webhook_deliveries
        DROP COLUMN headers_ciphertext,
        DROP COLUMN url`);
    await disableTenantRls(runner, `${s}.a2a_push_configs`);
    await runner.query(`DROP TABLE ${s}.a2a_push_configs`);
  }
}
