import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D39: LLM providers (an OpenAI-compatible base URL, its API key sealed as D37 says, the models it
 * serves) and a gateway's ordered provider list with its model map.
 */
export class CreateLlmProvidersTable1763790700000 implements MigrationInterface {
  name = 'CreateLlmProvidersTable1763790700000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.llm_providers (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        base_url text NOT NULL,
        api_key_ciphertext text,
        models text[],
        timeout_ms integer NOT NULL DEFAULT 60000,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await enableTenantRls(runner, `${s}.llm_providers`);
    await runner.query(`
      ALTER TABLE ${s}.llm_gateways
        ADD COLUMN provider_ids uuid[] NOT NULL DEFAULT '{}',
        ADD COLUMN model_map jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(
      `ALTER TABLE ${s}.llm_gateways DROP COLUMN provider_ids, DROP COLUMN model_map`,
    );
    await disableTenantRls(runner, `${s}.llm_providers`);
    await runner.query(`DROP TABLE ${s}.llm_providers`);
  }
}
