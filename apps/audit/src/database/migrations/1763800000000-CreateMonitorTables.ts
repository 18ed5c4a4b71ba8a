import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const TENANT_TABLES = [
  'monitor_alerts',
  'monitor_alert_history',
  'monitor_rollups',
  'monitor_sightings',
  'monitor_configs',
];

/**
 * Monitors and alerts (issue 7): alerts with their history (D14), per-minute rollups (one row per
 * tenant, subject, metric and hour holding the running count through each of its 60 minutes, so
 * that any window is two array reads, docs/decisions/monitors.md M3), first
 * and last sightings for novelty and dormancy, per-tenant detector settings, and the tick leases
 * that make each minute's evaluation run on one replica only.
 */
export class CreateMonitorTables1763800000000 implements MigrationInterface {
  name = 'CreateMonitorTables1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.monitor_alerts (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        finding_id uuid NOT NULL,
        detector text NOT NULL,
        severity text NOT NULL,
        direction text NOT NULL,
        status text NOT NULL,
        subject_type text NOT NULL,
        subject_id uuid NOT NULL,
        detected_at timestamptz NOT NULL,
        last_detected_at timestamptz NOT NULL,
        occurrences integer NOT NULL DEFAULT 1,
        summary text NOT NULL,
        evidence jsonb NOT NULL,
        acknowledged_by_label text,
        acknowledged_at timestamptz,
        resolved_by_label text,
        resolved_at timestamptz,
        dismissed_reason text,
        suppressed_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // D14: at most one OPEN or ACKNOWLEDGED alert per detector and subject, held by the database.
    await runner.query(`
      CREATE UNIQUE INDEX monitor_alerts_one_active ON ${S}.monitor_alerts
        (tenant_id, detector, subject_type, subject_id) WHERE status IN ('OPEN', 'ACKNOWLEDGED')`);
    await runner.query(
      `CREATE INDEX monitor_alerts_tenant_detected ON ${S}.monitor_alerts (tenant_id, detected_at DESC, id)`,
    );
    await runner.query(`
      CREATE INDEX monitor_alerts_suppression ON ${S}.monitor_alerts
        (tenant_id, detector, subject_type, subject_id, suppressed_until) WHERE suppressed_until IS NOT NULL`);
    await runner.query(`
      CREATE TABLE ${S}.monitor_alert_history (
        id bigserial PRIMARY KEY,
        tenant_id uuid NOT NULL,
        alert_id uuid NOT NULL REFERENCES ${S}.monitor_alerts (id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        action text NOT NULL,
        actor_id text NOT NULL,
        actor_label text NOT NULL,
        note text
      )`);
    await runner.query(
      `CREATE INDEX monitor_alert_history_alert ON ${S}.monitor_alert_history (alert_id, id)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.monitor_rollups (
        tenant_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        subject_type text NOT NULL,
        subject_id uuid NOT NULL,
        metric text NOT NULL,
        total integer NOT NULL,
        running integer[] NOT NULL,
        PRIMARY KEY (tenant_id, hour, subject_type, subject_id, metric)
      )`);
    // Element-wise sum of two 60-minute arrays: the upsert's "count = count + excluded.count" (M3).
    await runner.query(`
      CREATE FUNCTION ${S}.monitor_add_minutes(a integer[], b integer[]) RETURNS integer[]
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i) $$`);
    await runner.query(`
      CREATE TABLE ${S}.monitor_sightings (
        tenant_id uuid NOT NULL,
        observation text NOT NULL,
        subject_type text NOT NULL,
        subject_id uuid NOT NULL,
        key text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        reappeared_at timestamptz NOT NULL,
        gap_minutes integer,
        count_since_reappeared integer NOT NULL DEFAULT 1,
        PRIMARY KEY (tenant_id, observation, subject_type, subject_id, key)
      )`);
    await runner.query(
      `CREATE INDEX monitor_sightings_reappeared ON ${S}.monitor_sightings (tenant_id, reappeared_at)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.monitor_configs (
        tenant_id uuid PRIMARY KEY,
        settings jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by_label text
      )`);
    await runner.query(`
      CREATE TABLE ${S}.monitor_ticks (
        minute timestamptz PRIMARY KEY,
        replica text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        findings integer
      )`);
    for (const table of TENANT_TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of TENANT_TABLES) {
      await disableTenantRls(runner, `${S}.${table}`);
    }
    await runner.query(`DROP TABLE ${S}.monitor_ticks`);
    await runner.query(`DROP TABLE ${S}.monitor_configs`);
    await runner.query(`DROP TABLE ${S}.monitor_sightings`);
    await runner.query(`DROP FUNCTION ${S}.monitor_add_minutes(integer[], integer[])`);
    await runner.query(`DROP TABLE ${S}.monitor_rollups`);
    await runner.query(`DROP TABLE ${S}.monitor_alert_history`);
    await runner.query(`DROP TABLE ${S}.monitor_alerts`);
  }
}
