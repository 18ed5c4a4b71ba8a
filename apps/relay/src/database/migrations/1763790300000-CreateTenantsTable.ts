import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/** The relay's projection of tenants (TENANT_LIFECYCLE): the slug POLICY.md's input carries. */
export class CreateTenantsTable1763790300000 implements MigrationInterface {
  name = 'CreateTenantsTable1763790300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${RELAY_SCHEMA}.tenants (
        tenant_id uuid PRIMARY KEY,
        slug text NOT NULL,
        status text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await enableTenantRls(runner, `${RELAY_SCHEMA}.tenants`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await disableTenantRls(runner, `${RELAY_SCHEMA}.tenants`);
    await runner.query(`DROP TABLE ${RELAY_SCHEMA}.tenants`);
  }
}
