import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D39 replaces a gateway's single `provider` and `baseUrl` with its providers: each gateway's old
 * upstream becomes a provider of the same name (its model the provider's one model), first and
 * only in the gateway's list; then the old columns go.
 */
export class MoveLlmGatewayUpstreamsToProviders1763790710000 implements MigrationInterface {
  name = 'MoveLlmGatewayUpstreamsToProviders1763790710000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      WITH moved AS (
        INSERT INTO ${s}.llm_providers (id, tenant_id, name, description, base_url, models)
        SELECT gen_random_uuid(), tenant_id, name, 'moved from the gateway (' || provider || ')',
               base_url, CASE WHEN model IS NULL THEN NULL ELSE ARRAY[model] END
          FROM ${s}.llm_gateways
        RETURNING id, tenant_id, name
      )
      UPDATE ${s}.llm_gateways g SET provider_ids = ARRAY[m.id]
        FROM moved m WHERE m.tenant_id = g.tenant_id AND m.name = g.name`);
    await runner.query(
      `ALTER TABLE ${s}.llm_gateways DROP COLUMN provider, DROP COLUMN base_url, DROP COLUMN model`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.llm_gateways
        ADD COLUMN provider text, ADD COLUMN base_url text, ADD COLUMN model text`);
    await runner.query(`
      UPDATE ${s}.llm_gateways g
         SET provider = 'openai-compatible', base_url = p.base_url, model = p.models[1]
        FROM ${s}.llm_providers p
       WHERE p.tenant_id = g.tenant_id AND p.id = g.provider_ids[1]`);
    await runner.query(
      `UPDATE ${s}.llm_gateways SET provider = 'openai-compatible', base_url = 'http://localhost' WHERE base_url IS NULL`,
    );
    await runner.query(
      `ALTER TABLE ${s}.llm_gateways ALTER COLUMN provider SET NOT NULL, ALTER COLUMN base_url SET NOT NULL`,
    );
  }
}
