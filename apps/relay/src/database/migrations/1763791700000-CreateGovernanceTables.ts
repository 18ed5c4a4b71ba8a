import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = [
  'governance_settings',
  'governance_records',
  'governance_attestations',
  'governance_incidents',
];

/**
 * Governance records of the registry (issue 17): the tenant's risk tiers, one record per governed
 * subject (risk tier, owner, review due date, a revision that grows with every change so that the
 * audit service's projection keeps the latest), attestations and incident reports.
 */
export class CreateGovernanceTables1763791700000 implements MigrationInterface {
  name = 'CreateGovernanceTables1763791700000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.governance_settings (
        tenant_id uuid PRIMARY KEY,
        risk_tiers jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${s}.governance_records (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        subject_type text NOT NULL,
        subject_id uuid NOT NULL,
        subject_name text NOT NULL,
        risk_tier text,
        owner_user_id uuid,
        owner_status text NOT NULL DEFAULT 'NONE',
        last_reviewed_at timestamptz,
        last_reviewed_by_label text,
        review_due_at timestamptz,
        revision integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, subject_type, subject_id)
      )`);
    await runner.query(
      `CREATE INDEX governance_records_owner ON ${s}.governance_records (tenant_id, owner_user_id)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.governance_attestations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        record_id uuid NOT NULL REFERENCES ${s}.governance_records (id) ON DELETE CASCADE,
        statement text NOT NULL,
        attested_by uuid NOT NULL,
        attested_by_label text NOT NULL,
        attested_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX governance_attestations_record ON ${s}.governance_attestations (tenant_id, record_id, attested_at DESC)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.governance_incidents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        record_id uuid NOT NULL REFERENCES ${s}.governance_records (id) ON DELETE CASCADE,
        title text NOT NULL,
        description text,
        severity text NOT NULL,
        status text NOT NULL DEFAULT 'OPEN',
        opened_by uuid NOT NULL,
        opened_by_label text NOT NULL,
        report_due_at timestamptz NOT NULL,
        report text,
        reported_by_label text,
        reported_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX governance_incidents_record ON ${s}.governance_incidents (tenant_id, record_id, created_at DESC)`,
    );
    for (const table of TABLES) {
      await enableTenantRls(runner, `${s}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await disableTenantRls(runner, `${RELAY_SCHEMA}.${table}`);
      await runner.query(`DROP TABLE ${RELAY_SCHEMA}.${table}`);
    }
  }
}
