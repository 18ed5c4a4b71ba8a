import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Webhooks to agents (D19, issue 14): an agent's webhook URL and its signing secrets (sealed as
 * D37 seals upstream credentials; the previous one signs beside the new until its overlap ends),
 * the deliveries owed to it, and every attempt made. `payload` is the exact body every attempt
 * sends; `lease_*` is how one replica holds a delivery while it sends it.
 */
export class CreateWebhookTables1763791400000 implements MigrationInterface {
  name = 'CreateWebhookTables1763791400000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.agents
        ADD COLUMN webhook_url text,
        ADD COLUMN webhook_secret_ciphertext text,
        ADD COLUMN webhook_previous_secret_ciphertext text,
        ADD COLUMN webhook_previous_secret_expires_at timestamptz`);
    await runner.query(`
      CREATE TABLE ${s}.webhook_deliveries (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        agent_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        correlation_id text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL DEFAULT 'PENDING',
        attempt_count int NOT NULL DEFAULT 0,
        round_attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_token uuid,
        lease_until timestamptz,
        last_status_code int,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (agent_id, event_id)
      )`);
    await runner.query(
      `CREATE INDEX webhook_deliveries_agent ON ${s}.webhook_deliveries (tenant_id, agent_id, created_at DESC)`,
    );
    await runner.query(
      `CREATE INDEX webhook_deliveries_due ON ${s}.webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`,
    );
    await runner.query(`
      CREATE TABLE ${s}.webhook_delivery_attempts (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delivery_id uuid NOT NULL REFERENCES ${s}.webhook_deliveries (id) ON DELETE CASCADE,
        attempt int NOT NULL,
        url text NOT NULL,
        attempted_at timestamptz NOT NULL,
        duration_ms int NOT NULL,
        status_code int,
        error text,
        response_excerpt text,
        signatures int NOT NULL,
        UNIQUE (delivery_id, attempt)
      )`);
    await enableTenantRls(runner, `${s}.webhook_deliveries`);
    await enableTenantRls(runner, `${s}.webhook_delivery_attempts`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.webhook_delivery_attempts`);
    await disableTenantRls(runner, `${s}.webhook_deliveries`);
    await runner.query(`DROP TABLE ${s}.webhook_delivery_attempts`);
    await runner.query(`DROP TABLE ${s}.webhook_deliveries`);
    await runner.query(`
      ALTER TABLE ${s}.agents
        DROP COLUMN webhook_previous_secret_expires_at,
        DROP COLUMN webhook_previous_secret_ciphertext,
        DROP COLUMN webhook_secret_ciphertext,
        DROP COLUMN webhook_url`);
  }
}
