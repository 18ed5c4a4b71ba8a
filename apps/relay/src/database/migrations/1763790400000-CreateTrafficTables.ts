import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = ['subscriptions', 'kill_switches', 'traffic_settings', 'rate_limit_windows'];

/**
 * What the traffic paths read on every hop (issue 11): subscriptions and tool grants (D32), kill
 * switches (D35), the tenant's traffic settings (D36, D34, D40) and the rate-limit counters that
 * hold across replicas (D36). MCP servers gain what the relay needs to reach them (D37).
 */
export class CreateTrafficTables1763790400000 implements MigrationInterface {
  name = 'CreateTrafficTables1763790400000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.subscriptions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        kind text NOT NULL,
        source_id uuid NOT NULL,
        target_id uuid NOT NULL,
        tools jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, kind, source_id, target_id)
      )`);
    await runner.query(
      `CREATE INDEX subscriptions_target ON ${s}.subscriptions (tenant_id, target_id)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.kill_switches (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        target_id uuid NOT NULL,
        reason text NOT NULL,
        engaged_by uuid,
        released_by uuid,
        released_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one engaged switch per target; the engaged ones are what every hop looks up.
    await runner.query(`
      CREATE UNIQUE INDEX kill_switches_engaged ON ${s}.kill_switches (tenant_id, scope, target_id)
      WHERE released_at IS NULL`);
    await runner.query(`
      CREATE TABLE ${s}.traffic_settings (
        tenant_id uuid PRIMARY KEY,
        tenant_per_minute integer,
        agent_per_minute integer,
        subscription_per_minute integer,
        content_capture boolean NOT NULL DEFAULT false,
        hitl_wait_seconds integer NOT NULL DEFAULT 30,
        hitl_expiry_seconds integer NOT NULL DEFAULT 86400,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${s}.rate_limit_windows (
        tenant_id uuid NOT NULL,
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        audited boolean NOT NULL DEFAULT false,
        PRIMARY KEY (tenant_id, key, window_start)
      )`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers ADD COLUMN credential_ciphertext text`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers ADD COLUMN credential_header text`);
    await runner.query(
      `ALTER TABLE ${s}.mcp_servers ADD COLUMN timeout_ms integer NOT NULL DEFAULT 30000`,
    );
    for (const table of TABLES) {
      await enableTenantRls(runner, `${s}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN timeout_ms`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN credential_header`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN credential_ciphertext`);
    for (const table of [...TABLES].reverse()) {
      await disableTenantRls(runner, `${s}.${table}`);
      await runner.query(`DROP TABLE ${s}.${table}`);
    }
  }
}
