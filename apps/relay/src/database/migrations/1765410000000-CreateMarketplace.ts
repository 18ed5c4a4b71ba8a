import { disableTenantRls, enableTenantRls, tenantPolicyExpression } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/** Rows both tenants of an installation read: the installer's (`tenant_id`) and the publisher's. */
const SHARED = ['marketplace_installations', 'marketplace_licences'];

/**
 * D47, D59 (marketplace.md MK1–MK8): listings (the publisher's rows), installations and licences
 * (each readable by the installing and the publishing tenant), the platform's licence signing keys
 * (no tenant's: read in the system scope, as the audit's checkpoint keys are) and the installed
 * entry's link to its installation on `agents`.
 */
export class CreateMarketplace1765410000000 implements MigrationInterface {
  name = 'CreateMarketplace1765410000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.marketplace_listings (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        kind text NOT NULL,
        target_id uuid NOT NULL,
        name text NOT NULL,
        summary text NOT NULL DEFAULT '',
        categories text[] NOT NULL DEFAULT '{}',
        terms jsonb NOT NULL,
        required_policies jsonb NOT NULL DEFAULT '[]',
        document jsonb NOT NULL,
        status text NOT NULL DEFAULT 'PUBLISHED',
        search tsvector NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        unpublished_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX marketplace_listings_search ON ${s}.marketplace_listings USING gin (search)`,
    );
    await runner.query(
      `CREATE INDEX marketplace_listings_browse ON ${s}.marketplace_listings (status, created_at, id)`,
    );
    await runner.query(
      `CREATE UNIQUE INDEX marketplace_listings_target ON ${s}.marketplace_listings (tenant_id, kind, target_id)
        WHERE status = 'PUBLISHED'`,
    );
    await enableTenantRls(runner, `${s}.marketplace_listings`);

    await runner.query(`
      CREATE TABLE ${s}.marketplace_installations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        publisher_tenant_id uuid NOT NULL,
        listing_id uuid NOT NULL REFERENCES ${s}.marketplace_listings (id),
        kind text NOT NULL,
        target_id uuid NOT NULL,
        entry_id uuid NOT NULL,
        installer_slug text,
        licensed boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'ACTIVE',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE UNIQUE INDEX marketplace_installations_once ON ${s}.marketplace_installations (tenant_id, listing_id)
        WHERE status <> 'REMOVED'`,
    );
    await runner.query(
      `CREATE INDEX marketplace_installations_publisher ON ${s}.marketplace_installations (publisher_tenant_id, created_at)`,
    );

    await runner.query(`
      CREATE TABLE ${s}.licence_signing_keys (
        kid text PRIMARY KEY,
        public_jwk jsonb NOT NULL,
        private_key_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);

    await runner.query(`
      CREATE TABLE ${s}.marketplace_licences (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        publisher_tenant_id uuid NOT NULL,
        installation_id uuid NOT NULL REFERENCES ${s}.marketplace_installations (id),
        listing_id uuid NOT NULL,
        kid text NOT NULL REFERENCES ${s}.licence_signing_keys (kid),
        token text NOT NULL,
        entitlements jsonb NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX marketplace_licences_installation ON ${s}.marketplace_licences (installation_id, issued_at)`,
    );
    for (const table of SHARED) {
      const either = `(${tenantPolicyExpression()}) OR (${tenantPolicyExpression('publisher_tenant_id')})`;
      await runner.query(`ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY`);
      await runner.query(`ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY`);
      await runner.query(
        `CREATE POLICY tenant_isolation ON ${s}.${table} USING (${either}) WITH CHECK (${either})`,
      );
    }
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN installation_id uuid`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.agents DROP COLUMN installation_id`);
    for (const table of [...SHARED].reverse()) {
      await disableTenantRls(runner, `${s}.${table}`);
    }
    await runner.query(`DROP TABLE ${s}.marketplace_licences`);
    await runner.query(`DROP TABLE ${s}.licence_signing_keys`);
    await runner.query(`DROP TABLE ${s}.marketplace_installations`);
    await disableTenantRls(runner, `${s}.marketplace_listings`);
    await runner.query(`DROP TABLE ${s}.marketplace_listings`);
  }
}
