import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;

/**
 * M27: custom monitors read one subject type's counter over a range of hours (M26); the primary
 * key leads with the hour, so such a read walked every row of the tenant in the range. Additive:
 * the upsert's updates change none of these columns, so they stay heap-only.
 */
export class AddRollupSeriesIndex1763803300000 implements MigrationInterface {
  name = 'AddRollupSeriesIndex1763803300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX monitor_rollups_series ON ${S}.monitor_rollups (tenant_id, subject_type, metric, hour)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ${S}.monitor_rollups_series`);
  }
}
