import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const S = RELAY_SCHEMA;
const TABLES = ['shadow_decisions', 'policy_replays', 'policy_replay_samples'];

/**
 * D49, D55 (governance.md G7–G11): a binding's `mode` (ENFORCE or SHADOW), the tenant's
 * `shadowSampleRate`, what shadow bindings made of live hops, and replays of recorded hops.
 */
export class AddShadowBindingsAndReplays1765320000000 implements MigrationInterface {
  name = 'AddShadowBindingsAndReplays1765320000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${S}.policy_bindings
        ADD COLUMN mode text NOT NULL DEFAULT 'ENFORCE' CHECK (mode IN ('ENFORCE', 'SHADOW'))`);
    await runner.query(`
      ALTER TABLE ${S}.traffic_settings
        ADD COLUMN shadow_sample_rate double precision NOT NULL DEFAULT 1
          CHECK (shadow_sample_rate >= 0 AND shadow_sample_rate <= 1)`);
    // G8: one row per shadowed hop (agreements too, so the report counts every pair); the event id
    // is the row's id, so a redelivered event inserts nothing. No foreign key: a deleted binding's
    // rows stay until retention removes them.
    await runner.query(`
      CREATE TABLE ${S}.shadow_decisions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        binding_id uuid NOT NULL,
        hop_id uuid NOT NULL,
        hop_at timestamptz NOT NULL,
        enforced_action text NOT NULL,
        shadow_action text NOT NULL,
        hop jsonb NOT NULL,
        enforced jsonb NOT NULL,
        shadow jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX shadow_decisions_binding_time ON ${S}.shadow_decisions (tenant_id, binding_id, hop_at, hop_id)`,
    );
    await runner.query(
      `CREATE INDEX shadow_decisions_recorded ON ${S}.shadow_decisions (recorded_at)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.policy_replays (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_id uuid NOT NULL,
        version_id uuid NOT NULL,
        version text NOT NULL,
        binding_id uuid,
        window_from timestamptz NOT NULL,
        window_to timestamptz NOT NULL,
        filters jsonb NOT NULL DEFAULT '{}',
        placement jsonb NOT NULL,
        status text NOT NULL DEFAULT 'PENDING'
          CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
        requested_by jsonb,
        cursor_at timestamptz,
        cursor_id uuid,
        scanned integer NOT NULL DEFAULT 0,
        judged integer NOT NULL DEFAULT 0,
        unreplayable integer NOT NULL DEFAULT 0,
        error_message text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX policy_replays_pending ON ${S}.policy_replays (created_at) WHERE status IN ('PENDING', 'RUNNING')`,
    );
    await runner.query(
      `CREATE INDEX policy_replays_version ON ${S}.policy_replays (tenant_id, group_id, version, created_at DESC)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.policy_replay_samples (
        replay_id uuid NOT NULL REFERENCES ${S}.policy_replays (id) ON DELETE CASCADE,
        hop_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        hop_at timestamptz NOT NULL,
        enforced_action text NOT NULL,
        shadow_action text NOT NULL,
        hop jsonb NOT NULL,
        enforced jsonb NOT NULL,
        shadow jsonb NOT NULL,
        PRIMARY KEY (replay_id, hop_id)
      )`);
    await runner.query(
      `CREATE INDEX policy_replay_samples_time ON ${S}.policy_replay_samples (replay_id, hop_at, hop_id)`,
    );
    for (const table of TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await disableTenantRls(runner, `${S}.${table}`);
    }
    await runner.query(`DROP TABLE ${S}.policy_replay_samples`);
    await runner.query(`DROP TABLE ${S}.policy_replays`);
    await runner.query(`DROP TABLE ${S}.shadow_decisions`);
    await runner.query(`ALTER TABLE ${S}.traffic_settings DROP COLUMN shadow_sample_rate`);
    await runner.query(`ALTER TABLE ${S}.policy_bindings DROP COLUMN mode`);
  }
}
