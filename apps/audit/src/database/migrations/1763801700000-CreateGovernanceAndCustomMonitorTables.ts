import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const NO_MONITOR = `'00000000-0000-0000-0000-000000000000'::uuid`;
const TENANT_TABLES = [
  'monitor_governance',
  'monitor_definitions',
  'monitor_mutes',
  'monitor_downtimes',
];

/**
 * Issue 17: the governance projection (from the relay's GOVERNANCE_LIFECYCLE snapshots, D4),
 * custom monitors, mutes and downtimes. An alert of a custom monitor names its monitor: the one
 * active alert per detector and subject (D14) becomes one per detector, monitor and subject. An
 * alert a mute or downtime suppressed says which (`suppressed_by_*`), so what was quiet stays visible.
 */
export class CreateGovernanceAndCustomMonitorTables1763801700000 implements MigrationInterface {
  name = 'CreateGovernanceAndCustomMonitorTables1763801700000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.monitor_governance (
        tenant_id uuid NOT NULL,
        record_id uuid NOT NULL,
        revision integer NOT NULL,
        subject_type text NOT NULL,
        subject_id uuid NOT NULL,
        subject_name text NOT NULL,
        risk_tier text,
        tier_severity text,
        owner_user_id uuid,
        owner_status text NOT NULL,
        review_due_at timestamptz,
        attested_at timestamptz,
        attestation_stale_at timestamptz,
        open_incidents jsonb NOT NULL DEFAULT '[]',
        is_deleted boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, record_id)
      )`);
    await runner.query(
      `CREATE INDEX monitor_governance_subject ON ${S}.monitor_governance (tenant_id, subject_type, subject_id)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.monitor_definitions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        monitor_type text NOT NULL,
        metric text NOT NULL,
        aggregation text NOT NULL,
        time_window text NOT NULL,
        group_by text NOT NULL,
        comparison text NOT NULL,
        threshold double precision NOT NULL,
        min_volume integer NOT NULL DEFAULT 0,
        severity text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_by_label text NOT NULL,
        updated_by_label text NOT NULL,
        last_evaluated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.monitor_mutes (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        monitor_id uuid,
        detector text,
        subject_type text,
        subject_id uuid,
        reason text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz,
        created_by_label text NOT NULL,
        unmuted_at timestamptz,
        unmuted_by_label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX monitor_mutes_active ON ${S}.monitor_mutes (tenant_id) WHERE unmuted_at IS NULL`,
    );
    await runner.query(`
      CREATE TABLE ${S}.monitor_downtimes (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        monitor_id uuid,
        detector text,
        subject_type text,
        subject_id uuid,
        reason text NOT NULL,
        starts_at timestamptz NOT NULL,
        duration_minutes integer NOT NULL,
        recurrence text NOT NULL,
        repeat_until timestamptz,
        created_by_label text NOT NULL,
        cancelled_at timestamptz,
        cancelled_by_label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX monitor_downtimes_active ON ${S}.monitor_downtimes (tenant_id) WHERE cancelled_at IS NULL`,
    );
    await runner.query(`ALTER TABLE ${S}.monitor_alerts ADD COLUMN monitor_id uuid`);
    await runner.query(`ALTER TABLE ${S}.monitor_alerts ADD COLUMN suppressed_by_kind text`);
    await runner.query(`ALTER TABLE ${S}.monitor_alerts ADD COLUMN suppressed_by_id uuid`);
    await runner.query(`DROP INDEX ${S}.monitor_alerts_one_active`);
    await runner.query(`
      CREATE UNIQUE INDEX monitor_alerts_one_active ON ${S}.monitor_alerts
        (tenant_id, detector, (coalesce(monitor_id, ${NO_MONITOR})), subject_type, subject_id)
        WHERE status IN ('OPEN', 'ACKNOWLEDGED')`);
    for (const table of TENANT_TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ${S}.monitor_alerts_one_active`);
    await runner.query(`DELETE FROM ${S}.monitor_alerts WHERE monitor_id IS NOT NULL`);
    await runner.query(`
      CREATE UNIQUE INDEX monitor_alerts_one_active ON ${S}.monitor_alerts
        (tenant_id, detector, subject_type, subject_id) WHERE status IN ('OPEN', 'ACKNOWLEDGED')`);
    for (const column of ['monitor_id', 'suppressed_by_kind', 'suppressed_by_id']) {
      await runner.query(`ALTER TABLE ${S}.monitor_alerts DROP COLUMN ${column}`);
    }
    for (const table of [...TENANT_TABLES].reverse()) {
      await disableTenantRls(runner, `${S}.${table}`);
      await runner.query(`DROP TABLE ${S}.${table}`);
    }
  }
}
