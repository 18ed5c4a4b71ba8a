import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Tenant pattern sets (D53, guardrails.md GR15): one row per pattern, named by its set and label;
 * `(tenant_id, set_name, label)` is unique, since a label is the finding's `type` within its set.
 */
export class CreateDetectionPatterns1765370000000 implements MigrationInterface {
  name = 'CreateDetectionPatterns1765370000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.detection_patterns (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        set_name text NOT NULL,
        label text NOT NULL,
        pattern text NOT NULL,
        flags text NOT NULL DEFAULT '',
        mode text NOT NULL DEFAULT 'DETECT',
        scope text NOT NULL DEFAULT 'ALL',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, set_name, label)
      )`);
    await enableTenantRls(runner, `${s}.detection_patterns`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.detection_patterns`);
    await runner.query(`DROP TABLE ${s}.detection_patterns`);
  }
}
