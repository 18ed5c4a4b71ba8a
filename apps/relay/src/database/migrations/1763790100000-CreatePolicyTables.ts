import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = ['policy_groups', 'policy_group_versions', 'policy_bindings', 'policy_settings'];

/** Policy groups, their immutable versions, bindings (D22–D24) and the tenant's fail mode. */
export class CreatePolicyTables1763790100000 implements MigrationInterface {
  name = 'CreatePolicyTables1763790100000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.policy_groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.policy_group_versions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_id uuid NOT NULL REFERENCES ${s}.policy_groups (id) ON DELETE CASCADE,
        version text NOT NULL,
        sort_key text NOT NULL,
        description text,
        rego_source text NOT NULL,
        rego_source_hash text NOT NULL,
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        retired_at timestamptz,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (group_id, version)
      )`);
    await runner.query(
      `CREATE INDEX policy_group_versions_order ON ${s}.policy_group_versions (group_id, sort_key)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.policy_bindings (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_id uuid NOT NULL REFERENCES ${s}.policy_groups (id),
        version_id uuid NOT NULL REFERENCES ${s}.policy_group_versions (id),
        binding_level text NOT NULL,
        agent_id uuid,
        source_agent_id uuid,
        sink_agent_id uuid,
        channel_id uuid,
        priority integer NOT NULL DEFAULT 100,
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        revision integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX policy_bindings_tenant ON ${s}.policy_bindings (tenant_id, binding_level)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.policy_settings (
        tenant_id uuid PRIMARY KEY,
        fail_open boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
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
