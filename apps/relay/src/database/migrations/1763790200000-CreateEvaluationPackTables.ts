import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = ['evaluation_packs', 'evaluations', 'evaluation_runs'];

/** Evaluation packs, their evaluations (hops inline) and runs (D15, D27). */
export class CreateEvaluationPackTables1763790200000 implements MigrationInterface {
  name = 'CreateEvaluationPackTables1763790200000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.evaluation_packs (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        owner_user_id uuid NOT NULL,
        owner_label text,
        enabled boolean NOT NULL DEFAULT true,
        last_run_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.evaluations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        pack_id uuid NOT NULL REFERENCES ${s}.evaluation_packs (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        source jsonb NOT NULL,
        target jsonb NOT NULL,
        input text NOT NULL,
        hops jsonb NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX evaluations_pack ON ${s}.evaluations (pack_id, created_at)`);
    await runner.query(`
      CREATE TABLE ${s}.evaluation_runs (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        pack_id uuid NOT NULL REFERENCES ${s}.evaluation_packs (id) ON DELETE CASCADE,
        pack_name text NOT NULL,
        status text NOT NULL,
        trigger_source text NOT NULL,
        triggered_by jsonb,
        execution_mode text NOT NULL,
        evaluation_count integer NOT NULL DEFAULT 0,
        passed integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        duration_ms integer,
        error_message text,
        results jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX evaluation_runs_pack ON ${s}.evaluation_runs (pack_id, created_at DESC)`,
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
