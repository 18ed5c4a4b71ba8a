import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const TABLES = ['model_prices', 'budgets', 'budget_reservations', 'spend_entries'];

/**
 * Spend (D48, D60, docs/decisions/spend.md): prices per model, budgets, the reservations a call
 * holds against its budgets until it settles (SP8), and the ledger of what was spent (SP12).
 * Amounts are numeric, never float (SP2); prices carry six decimals, amounts twelve.
 */
export class CreateSpendTables1765430000000 implements MigrationInterface {
  name = 'CreateSpendTables1765430000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.model_prices (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        model text NOT NULL,
        currency text NOT NULL,
        input_per_million numeric(24, 6) NOT NULL,
        output_per_million numeric(24, 6) NOT NULL,
        cached_input_per_million numeric(24, 6),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, model)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.budgets (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        target_id uuid,
        period text NOT NULL,
        unit text NOT NULL,
        soft_limit numeric(38, 12),
        hard_limit numeric(38, 12),
        soft_alerted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE UNIQUE INDEX budgets_one_per_target ON ${s}.budgets
        (tenant_id, scope, coalesce(target_id, '00000000-0000-0000-0000-000000000000'::uuid), period, unit)`);
    await runner.query(`
      CREATE TABLE ${s}.budget_reservations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        agent_id uuid NOT NULL,
        subscription_id uuid,
        llm_gateway_id uuid,
        amount_usd numeric(38, 12) NOT NULL,
        tokens bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX budget_reservations_tenant ON ${s}.budget_reservations (tenant_id, expires_at)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.spend_entries (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        kind text NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        agent_id uuid,
        subscription_id uuid,
        llm_gateway_id uuid,
        llm_provider_id uuid,
        model text,
        payee_type text,
        payee_id text,
        payee_label text,
        amount_usd numeric(38, 12),
        prompt_tokens bigint NOT NULL DEFAULT 0,
        completion_tokens bigint NOT NULL DEFAULT 0,
        cached_tokens bigint NOT NULL DEFAULT 0,
        total_tokens bigint NOT NULL DEFAULT 0,
        correlation_id text NOT NULL,
        event_id uuid,
        details jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await runner.query(
      `CREATE INDEX spend_entries_time ON ${s}.spend_entries (tenant_id, occurred_at)`,
    );
    for (const column of ['agent_id', 'llm_gateway_id', 'subscription_id']) {
      await runner.query(
        `CREATE INDEX spend_entries_${column} ON ${s}.spend_entries (tenant_id, ${column}, occurred_at)
          WHERE ${column} IS NOT NULL`,
      );
    }
    for (const table of TABLES) {
      await enableTenantRls(runner, `${s}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    for (const table of [...TABLES].reverse()) {
      await disableTenantRls(runner, `${s}.${table}`);
      await runner.query(`DROP TABLE ${s}.${table}`);
    }
  }
}
