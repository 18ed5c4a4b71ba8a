import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;

/**
 * M33: per tenant, grouping and group, how many traffic events its cells (M29) hold in all, kept
 * with the cells by the ingest and lowered by the cells' prune. No metric of a window counts more
 * samples than that, so a tick reads the cells only of the groups that could reach a monitor's
 * `minVolume`. The backfill of existing cells is the next migration.
 */
export class CreateMonitorSeriesTotals1763804900000 implements MigrationInterface {
  name = 'CreateMonitorSeriesTotals1763804900000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.monitor_series_totals (
        tenant_id uuid NOT NULL,
        group_by text NOT NULL,
        group_key text NOT NULL,
        events bigint NOT NULL,
        PRIMARY KEY (tenant_id, group_by, group_key)
      )`);
    await enableTenantRls(runner, `${S}.monitor_series_totals`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await disableTenantRls(runner, `${S}.monitor_series_totals`);
    await runner.query(`DROP TABLE ${S}.monitor_series_totals`);
  }
}
