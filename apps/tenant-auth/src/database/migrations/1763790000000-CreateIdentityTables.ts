import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';
const TENANT_TABLES = [
  'users',
  'groups',
  'group_members',
  'roles',
  'clients',
  'identity_providers',
];

export class CreateIdentityTables1763790000000 implements MigrationInterface {
  name = 'CreateIdentityTables1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.tenants (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'SUSPENDED')),
        is_operator boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${S}.roles (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        permissions text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.users (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        email text NOT NULL,
        display_name text NOT NULL,
        password_hash text,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
        role_ids uuid[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, email)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        role_ids uuid[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.group_members (
        group_id uuid NOT NULL REFERENCES ${S}.groups (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES ${S}.users (id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (group_id, user_id)
      )`);
    await runner.query(`CREATE INDEX group_members_user ON ${S}.group_members (user_id)`);
    await runner.query(`
      CREATE TABLE ${S}.clients (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('AGENT', 'SERVICE')),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        status text NOT NULL CHECK (status IN ('ACTIVE', 'SUSPENDED')),
        secret_hash text NOT NULL,
        secret_rotated_at timestamptz NOT NULL,
        permissions text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, kind, name)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.identity_providers (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        alias text NOT NULL,
        display_name text NOT NULL,
        enabled boolean NOT NULL,
        type text NOT NULL,
        client_id text NOT NULL,
        client_secret_sealed text,
        issuer_url text,
        group_mappings jsonb NOT NULL DEFAULT '{}',
        email_domains jsonb NOT NULL DEFAULT '[]',
        redirect_uri text,
        created_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, alias)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.signing_keys (
        kid text PRIMARY KEY,
        private_key_sealed text NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz,
        published_until timestamptz
      )`);
    await runner.query(`
      CREATE TABLE ${S}.token_rate_windows (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key, window_start)
      )`);
    // identity.md I2: the durable side of revocations; the NATS bucket is reconciled from it.
    await runner.query(`
      CREATE TABLE ${S}.revocations (
        key text PRIMARY KEY,
        reason text NOT NULL,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    for (const table of TENANT_TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of TENANT_TABLES) {
      await disableTenantRls(runner, `${S}.${table}`);
    }
    for (const table of [
      'revocations',
      'token_rate_windows',
      'signing_keys',
      ...TENANT_TABLES.reverse(),
      'tenants',
    ]) {
      await runner.query(`DROP TABLE IF EXISTS ${S}.${table}`);
    }
  }
}
