import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Notifications to people (D58, issue 34 § 3): a tenant's targets (their credentials sealed
 * apart from `config`, W15), the deliveries owed to each, and every attempt. `payload` is the
 * notification as built once; `lease_*` is how one replica holds a delivery while it sends it
 * (as webhook deliveries, W8). `UNIQUE (target_id, event_id)`: one delivery per target and event.
 */
export class CreateNotificationTables1765340000000 implements MigrationInterface {
  name = 'CreateNotificationTables1765340000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.notification_targets (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        kind text NOT NULL,
        events text[] NOT NULL,
        min_severity text,
        is_enabled boolean NOT NULL DEFAULT true,
        config jsonb NOT NULL,
        secrets_ciphertext text NOT NULL,
        secret_fields text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.notification_deliveries (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        target_id uuid NOT NULL REFERENCES ${s}.notification_targets (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        event text NOT NULL,
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
        UNIQUE (target_id, event_id)
      )`);
    await runner.query(
      `CREATE INDEX notification_deliveries_target ON ${s}.notification_deliveries (tenant_id, target_id, created_at DESC)`,
    );
    await runner.query(
      `CREATE INDEX notification_deliveries_due ON ${s}.notification_deliveries (next_attempt_at) WHERE status = 'PENDING'`,
    );
    await runner.query(`
      CREATE TABLE ${s}.notification_delivery_attempts (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delivery_id uuid NOT NULL REFERENCES ${s}.notification_deliveries (id) ON DELETE CASCADE,
        attempt int NOT NULL,
        attempted_at timestamptz NOT NULL,
        duration_ms int NOT NULL,
        status_code int,
        error text,
        UNIQUE (delivery_id, attempt)
      )`);
    await enableTenantRls(runner, `${s}.notification_targets`);
    await enableTenantRls(runner, `${s}.notification_deliveries`);
    await enableTenantRls(runner, `${s}.notification_delivery_attempts`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.notification_delivery_attempts`);
    await disableTenantRls(runner, `${s}.notification_deliveries`);
    await disableTenantRls(runner, `${s}.notification_targets`);
    await runner.query(`DROP TABLE ${s}.notification_delivery_attempts`);
    await runner.query(`DROP TABLE ${s}.notification_deliveries`);
    await runner.query(`DROP TABLE ${s}.notification_targets`);
  }
}
