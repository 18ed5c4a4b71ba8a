import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D45, D57: the tenant's disclosure and marking settings, and the conversations already told they
 * talk to an AI (traffic.md T71), so "first message" holds across replicas and restarts.
 */
export class AddAiDisclosure1765360000000 implements MigrationInterface {
  name = 'AddAiDisclosure1765360000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.traffic_settings
        ADD COLUMN ai_disclosure text NOT NULL DEFAULT 'OFF'
          CHECK (ai_disclosure IN ('OFF', 'FIRST_MESSAGE', 'EVERY_MESSAGE')),
        ADD COLUMN ai_disclosure_text text,
        ADD COLUMN content_marking text NOT NULL DEFAULT 'OFF'
          CHECK (content_marking IN ('OFF', 'ON'))`);
    await runner.query(`
      CREATE TABLE ${s}.ai_disclosures (
        tenant_id uuid NOT NULL,
        conversation_key text NOT NULL,
        agent_id uuid NOT NULL,
        disclosed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, conversation_key)
      )`);
    await runner.query(`CREATE INDEX ai_disclosures_by_age ON ${s}.ai_disclosures (disclosed_at)`);
    await enableTenantRls(runner, `${s}.ai_disclosures`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.ai_disclosures`);
    await runner.query(`DROP TABLE ${s}.ai_disclosures`);
    await runner.query(`
      ALTER TABLE ${s}.traffic_settings
        DROP COLUMN content_marking, DROP COLUMN ai_disclosure_text, DROP COLUMN ai_disclosure`);
  }
}
