import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = ['agents', 'mcp_servers', 'channels', 'llm_gateways', 'users'];

/** The relay's registry (issue 6 §1) and its projection of tenant-auth's users (D15). */
export class CreateRegistryTables1763790000000 implements MigrationInterface {
  name = 'CreateRegistryTables1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.agents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        status text NOT NULL,
        permissions jsonb NOT NULL DEFAULT '[]',
        description text,
        agent_card_url text,
        visibility text NOT NULL DEFAULT 'PRIVATE',
        owner_user_id uuid,
        risk_tier text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX agents_tenant_name ON ${s}.agents (tenant_id, name)`);
    await runner.query(`
      CREATE TABLE ${s}.mcp_servers (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        url text NOT NULL,
        transport text NOT NULL,
        protocol_version text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.channels (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        kind text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.llm_gateways (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        provider text NOT NULL,
        base_url text NOT NULL,
        model text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.users (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        email text NOT NULL,
        display_name text,
        status text NOT NULL,
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
