import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;

/**
 * M33: the totals of the cells stored before `monitor_series_totals` existed. Every cell counts
 * traffic events only (M29): those of its `traffic` and its failovers. Runs before the ingest
 * starts (migrations run at start), so no cell changes meanwhile.
 */
export class BackfillMonitorSeriesTotals1763804950000 implements MigrationInterface {
  name = 'BackfillMonitorSeriesTotals1763804950000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO ${S}.monitor_series_totals (tenant_id, group_by, group_key, events)
      SELECT tenant_id, group_by, group_key, sum(traffic + llm_failovers)
      FROM ${S}.monitor_series GROUP BY tenant_id, group_by, group_key
      ON CONFLICT (tenant_id, group_by, group_key) DO UPDATE SET events = excluded.events`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM ${S}.monitor_series_totals`);
  }
}
